# react-ssr-host: build the client and server bundles, then ship them with production
# dependencies only. Plain Dockerfile syntax (no BuildKit-only features), so `docker build`,
# `podman build` and `buildah bud` all read it the same way.
#
#   podman build --build-arg VERSION=1.4.0 -t react-ssr-host:1.4.0 .   (or: docker build ...)
#   podman run -p 3000:3000 -e DIGEST_KEY=<16+ chars> react-ssr-host:1.4.0

# One base for every stage: the node_modules built in one stage must run on the same Node
# and the same libc in the next. Node 26 is the current LTS (Node 20 reached its end of life in
# April 2026). The tag names the same 26.x as .node-version and the node-linux-* packages in
# package.json's optionalDependencies, which bring that Node to machines whose own is older: the
# image, the tests and local development all run one Node. Override with
# --build-arg NODE_IMAGE=<tag or digest> to pin it harder; keep the three in step.
ARG NODE_IMAGE=node:26.12.1-bookworm-slim

# --- deps: every dependency, dev ones included, because the build needs vite. Only the
# manifests are copied, so this layer is reused until package*.json changes.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# --- build: dist/client (hashed assets + .vite/manifest.json), dist/server and dist/cli (the
# operator's digest tool, built executable by cli/vite.config.ts).
FROM deps AS build
COPY . .
RUN npm run build

# --- prod-deps: a separate, clean install without devDependencies (rather than pruning the
# build's node_modules), so nothing the build left behind can reach the image.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# The node-linux-* packages are optional dependencies (so other platforms skip them), which
# --omit=dev keeps: they are removed, and the image runs its own `node`, the base's. TypeScript
# is an optional peer of @react-router/node (for its types), which --omit=dev keeps too since
# the build installs it: nothing at run time reads it.
RUN npm ci --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/node-linux-* node_modules/.bin/node node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver

# --- runtime: package.json (ESM "type": "module"), production
# node_modules and dist/, nothing else. COPY leaves them owned by root and world-readable:
# the app writes only its data folder (below), so the user it runs as cannot change its own code.
FROM ${NODE_IMAGE} AS runtime
# React and Express pick their production behaviour from NODE_ENV at run time.
ENV NODE_ENV=production
WORKDIR /app
COPY package.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The operator's digest tool on PATH: `react-ssr-host-digest` (and `npx react-ssr-host-digest`,
# which finds it in npm's global bin) runs the root-owned build. package.json has no `bin` on
# purpose: npx would then install /app into its cache and chmod the file, which only its owner may.
RUN ln -s /app/dist/cli/digest.js /usr/local/bin/react-ssr-host-digest
# Mount point of the shared assets volume (SHARED_ASSETS_DIR, see README "Run in production"):
# owned by node, so an empty named volume mounted here starts out writable by the server.
# /app/data holds the database (DATABASE_PATH's default, data/app.sqlite under WORKDIR; docs/data.md),
# the files actions keep (FILES_DIR's default, data/files) and the uploads in flight (UPLOAD_DIR's,
# data/uploads, on disk: /tmp is a tmpfs, memory, in the deploy files): the one folder of the app
# the server writes, owned by node for the same reason, the rest stays root's. /srv/files is the
# mount point of a files volume replicas share (the deploy files set FILES_DIR to it).
RUN mkdir -p /srv/assets /srv/files /app/data && chown node:node /srv/assets /srv/files /app/data

# The release the process reports on every log line, in Sentry and on app_info (RELEASE), is the
# image's own: `--build-arg VERSION=1.4.0` with the same version as the tag (`-t ...:1.4.0`), so
# whatever runs the image (kustomize, `kubectl set image`, a rollback, compose) reports what it
# runs. Stored pages and route discovery are keyed by it, so two builds must not share one.
# Declared this late so a new version rebuilds nothing before it.
ARG VERSION=dev
ENV RELEASE=react-ssr-host@${VERSION}
LABEL org.opencontainers.image.version=${VERSION}

# The official node images ship this unprivileged user (uid 1000).
USER node
EXPOSE 3000

# Node itself does the probe (the slim image has no curl or wget); /healthz is liveness only,
# so a draining server still passes while it finishes its in-flight responses.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# The server drains on SIGTERM (readiness 503, in-flight responses finish, exit 0). Exec form
# makes node PID 1 with no shell in between, so the signal reaches it; node as PID 1 gets no
# default signal handling, which is fine because the app installs its own SIGTERM/SIGINT handlers.
STOPSIGNAL SIGTERM
# Sentry's instrumentation must load before the app: --import, not --require (Sentry 11).
CMD ["node", "--import", "./dist/server/instrument.js", "dist/server/index.js"]
