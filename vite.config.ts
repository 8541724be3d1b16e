import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressAssets } from './vite/precompress-assets.ts';
import { reactRouterTrim } from './vite/react-router-trim.ts';

/** `*.server.ts` modules (route loaders) run only on the server. */
const SERVER_MODULE = /\.server\.[cm]?[jt]sx?$/;
/** The route table's `server: () => import('./x.server.ts')`: the browser gets a stub in its place. */
const DYNAMIC_SERVER_IMPORT = /import\(\s*(['"])([^'"]+\.server(?:\.[cm]?[jt]sx?)?)\1\s*\)/g;

/**
 * Keeps server-only code out of the browser: a dynamic import of a `.server` module becomes a
 * stub that rejects, and any other import of one from browser code fails the build. Their code,
 * imports and secrets never reach dist/client (a test greps it for a loader's marker).
 */
export function serverOnlyModules(): Plugin {
  const isServer = (environment: { config: { consumer: string } } | undefined, ssr: boolean | undefined) =>
    ssr === true || environment?.config.consumer === 'server';
  return {
    name: 'react-ssr-host:server-only-modules',
    enforce: 'pre',
    transform(code, id, options) {
      if (isServer(this.environment, options?.ssr) || id.includes('/node_modules/') || !code.includes('.server')) return undefined;
      const stubbed = code.replace(
        DYNAMIC_SERVER_IMPORT,
        (_m, _q, path: string) => `Promise.reject(new Error(${JSON.stringify(`${path} is server-only`)}))`,
      );
      return stubbed === code ? undefined : { code: stubbed, map: null };
    },
    load(id, options) {
      if (SERVER_MODULE.test(id.split('?')[0]!) && !isServer(this.environment, options?.ssr)) {
        this.error(`${id} is a server-only module: browser code may not import it (only the route table's \`server\` field names it)`);
      }
      return undefined;
    },
  };
}

/**
 * React Router is a devDependency, and the image installs no devDependencies: the server bundle
 * carries it and the packages it depends on (8 brought cookie-es and @remix-run/route-pattern,
 * which nothing else installs in production). Read from its package.json, so a new one is carried too.
 */
const ROUTER_BUNDLED = [
  'react-router',
  ...Object.keys(
    (JSON.parse(readFileSync(new URL('node_modules/react-router/package.json', import.meta.url), 'utf8')) as { dependencies?: object })
      .dependencies ?? {},
  ),
];

/** A route table's `page: () => import('./x.tsx')`. */
const PAGE_IMPORT = /page:\s*\(\)\s*=>\s*import\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*\)/g;

/**
 * Tags each lazy page of a route table with its source path (`page.src`), so the server can
 * preload the chunks of the routes a request matches (from the client build's manifest)
 * instead of the browser finding them only after the entry has run.
 */
export function routeModuleSources(): Plugin {
  let root = '';
  return {
    name: 'react-ssr-host:route-module-sources',
    configResolved(config) {
      root = config.root;
    },
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('defineRoutes(')) return undefined;
      const tagged = code.replace(PAGE_IMPORT, (match, _q, path: string) => {
        const src = relative(root, resolve(dirname(id), path))
          .split(sep)
          .join('/');
        return `page: Object.assign(${match.slice(match.indexOf('(')).trim()}, { src: ${JSON.stringify(src)} })`;
      });
      return tagged === code ? undefined : { code: tagged, map: null };
    },
  };
}

/** The host's synthetic routes (client/router/server/host-routes.ts adds them): an empty list unless a benchmark asks. */
const SYNTHETIC_ROUTES_MODULE = fileURLToPath(new URL('client/router/synthetic/synthetic-routes.ts', import.meta.url));
/** Where the client build records how many it has (tools/ensure-build.js reads it). */
export const SYNTHETIC_ROUTES_RECORD = '.vite/synthetic-routes.json';
/** Enough for any benchmark; a typo must not build a million routes. */
const MAX_SYNTHETIC_ROUTES = 10_000;
const SYNTHETIC_PAGE = 'client/router/synthetic/Synthetic.tsx';

/** `SYNTHETIC_ROUTES`: an integer from 0 to MAX_SYNTHETIC_ROUTES, 0 when unset. */
export function syntheticRouteCount(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0 || count > MAX_SYNTHETIC_ROUTES) {
    throw new Error(`Invalid SYNTHETIC_ROUTES=${JSON.stringify(raw)}: expected an integer from 0 to ${MAX_SYNTHETIC_ROUTES}`);
  }
  return count;
}

/**
 * For benchmarks only (docs/performance.md, "Route-table growth"): `count` routes
 * `/synthetic/<i>/:id` under the site layout, each written out as an app would write it (its own
 * entry and lazy page import, no loader), so the table costs what a table that size costs. The
 * client build records the count, so a synthetic build is never served by accident.
 */
export function syntheticRoutes(count: number): Plugin {
  const page = JSON.stringify(fileURLToPath(new URL(SYNTHETIC_PAGE, import.meta.url)));
  return {
    name: 'react-ssr-host:synthetic-routes',
    load(id) {
      if (count === 0 || id !== SYNTHETIC_ROUTES_MODULE) return undefined;
      const entries = Array.from(
        { length: count },
        (_, i) =>
          `{ id: 'synthetic-${i}', path: 'synthetic/${i}/:id', page: Object.assign(() => import(${page}), { src: '${SYNTHETIC_PAGE}' }) }`,
      );
      return `export const syntheticRoutes = [${entries.join(',\n')}];\n`;
    },
    writeBundle(options) {
      if (options.dir === undefined || this.environment.config.consumer !== 'client') return;
      writeFileSync(join(options.dir, SYNTHETIC_ROUTES_RECORD), `${JSON.stringify({ syntheticRoutes: count })}\n`);
    },
  };
}

/** A module of one of these packages, on any platform's path separator. */
function packagesPattern(names: readonly string[]): RegExp {
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('/', '[\\\\/]'));
  return new RegExp(`node_modules[\\\\/](?:${escaped.join('|')})[\\\\/]`);
}

/** The browser's entry, and the route tables' (never loaded by a browser: so their pages are built), the app's and the host's. */
const ROUTE_TABLES = ['client/routes.tsx', 'client/router/diagnostics/diagnostic-routes.ts', 'client/router/synthetic/synthetic-routes.ts'];
const CLIENT_ENTRIES = ['client/entry-client.tsx', ...ROUTE_TABLES];

/**
 * The host's scripts that every page loads: all that the browser's entry imports statically
 * (rolldown's `$initial` tag), from client/, shared/ and Vite's import helper, but the entries
 * themselves (their CSS in the shared file would count as every page's own) and the route
 * tables (a synthetic table of a thousand routes must not reach the first load).
 */
function isFirstLoadHostScript(id: string): boolean {
  if (/[\\/]vite[\\/]preload-helper/.test(id)) return true;
  if (id.includes('node_modules') || !/\.tsx?$/.test(id)) return false;
  const path = relative(fileURLToPath(new URL('.', import.meta.url)), id)
    .split(sep)
    .join('/');
  return !CLIENT_ENTRIES.includes(path);
}

/** React, and React Router with the packages it depends on (the same list the server bundles). */
const FIRST_LOAD_LIBRARIES = packagesPattern(['react', 'react-dom', 'scheduler', ...ROUTER_BUNDLED]);

/**
 * The first load's one file (docs/performance.md, "First-load JavaScript"): React, React Router
 * and the host's first-load modules. Each file is gzipped on its own: the entry's top-level
 * awaits turn off rolldown's merging of common chunks, which cut React Router into four chunks
 * and the host's modules into six (+4.7 KB on `/`), and even two files cost 0.9 KB more than
 * one. One file no longer keeps the libraries cached across the host's releases, which is worth
 * little: such a release re-sends a file anyway, an upgrade of React or React Router changes it
 * too, and a first visit (issue 36's measure) has nothing cached; the app's pages are apart.
 */
const FIRST_LOAD_CHUNKS = [
  { name: 'first-load', tags: ['$initial' as const], test: (id: string) => FIRST_LOAD_LIBRARIES.test(id) || isFirstLoadHostScript(id) },
];

// One config, two builds: the browser bundle (hashed files + manifest) and the server bundle (the process
// entry, with the React renderer inside; dependencies stay external so Sentry's `--import` sees the real packages).
export default defineConfig(({ isSsrBuild, mode }) => ({
  plugins: [
    serverOnlyModules(),
    routeModuleSources(),
    syntheticRoutes(syntheticRouteCount(process.env.SYNTHETIC_ROUTES)),
    react(),
    ...(isSsrBuild ? [] : [reactRouterTrim(), precompressAssets()]),
  ],
  // React Router 8's package exports its production build by default and its development build
  // under the `development` condition, which Vite sets only in development: no alias is needed.
  ssr: mode === 'production' ? { noExternal: ROUTER_BUNDLED } : undefined,
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        target: 'node22', // engines' floor (package.json)
        // Shipped beside the server files (never served): failures are logged with source
        // files and lines (server/failures/source-maps.ts).
        sourcemap: true,
        rolldownOptions: {
          // `renderer` is the app's React renderer under a stable name, for the bench's floor;
          // `prerender` is the build's last step, which renders pages through this same bundle (server/prerender.ts).
          input: {
            index: 'server/index.ts',
            instrument: 'server/instrument.ts',
            renderer: 'client/entry-server.tsx',
            prerender: 'server/prerender.ts',
          },
        },
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        rolldownOptions: {
          // The route table is an entry of its own that no page loads: it makes each page its
          // chunk and names them in the manifest, while the browser learns the table a branch at
          // a time from the server (shared/route-discovery.ts), whatever its size.
          input: CLIENT_ENTRIES,
          output: { codeSplitting: { groups: FIRST_LOAD_CHUNKS } },
        },
      },
}));
