import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import type { Plugin, PluginOption } from 'vite';
import { APP_MODULES } from '../server/assets/app-modules.ts';
import { firstLoadChunks } from './first-load-chunks.ts';
import { hostRouteExports } from './host-route-exports.ts';

// React Router's own Vite plugin (framework mode), with what the host changes of it:
// - an app with no entry.server or entry.client of its own gets the host's (server/render/document.tsx,
//   client/router/entry.client.tsx) where React Router would give its defaults: the nonce on every
//   script, the host's deadline, digests for what fails after the shell, and the browser's error
//   reports. An app that has its own keeps it (docs/upgrading.md says what to call from it);
// - React Router's own prerender step is left out: the host's (server/prerender.ts) renders the
//   app's `prerender` paths through the host's middleware, with the checks docs/caching.md lists,
//   where React Router's runs the bare handler (no session, no database, no checks);
// - the browser's first load comes in fewer files (./first-load-chunks.ts);
// - the host's own route exports stay out of the browser's modules in development too (./host-route-exports.ts);
// - the server build's files keep their entry names (dist/server/index.js is the host's process,
//   react-router.js React Router's server build beside it), where React Router names every entry
//   as its one server file.

const require = createRequire(import.meta.url);
/** React Router's default entries (@react-router/dev's resolveEntryFiles): used when the app has none. */
const DEFAULTS = join(dirname(require.resolve('@react-router/dev/package.json')), 'dist', 'config', 'defaults');
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const HOST_ENTRY_SERVER = join(ROOT, 'server/render/document.tsx');
export const HOST_ENTRY_CLIENT = join(ROOT, 'client/router/entry.client.tsx');
/** One of React Router's default entries, by its name without the extension (they are files of @react-router/dev, not ours). */
const defaultEntry = (name: string) => join(DEFAULTS, `${name}.tsx`);
const DEFAULT_ENTRIES: Record<string, string> = {
  [defaultEntry('entry.server.node')]: HOST_ENTRY_SERVER,
  [defaultEntry('entry.server.web')]: HOST_ENTRY_SERVER,
  [defaultEntry('entry.client')]: HOST_ENTRY_CLIENT,
};
/** The name of React Router's prerender plugin (@react-router/dev/dist/vite.js; its source's vite/plugins/prerender module). */
const PRERENDER_PLUGIN = 'prerender';

function hostEntries(): Plugin {
  return {
    name: 'react-ssr-host:entries',
    enforce: 'pre',
    // A module standing in for React Router's default: the host's, re-exported whole.
    load(id) {
      const host = DEFAULT_ENTRIES[id.split('?')[0]!];
      if (host === undefined) return undefined;
      const from = JSON.stringify(host);
      return host === HOST_ENTRY_CLIENT ? `import ${from};\n` : `export * from ${from};\nexport { default } from ${from};\n`;
    },
  };
}

function entryNames(): Plugin {
  return {
    name: 'react-ssr-host:server-entry-names',
    config: {
      order: 'post',
      handler: () => ({ environments: { ssr: { build: { rollupOptions: { output: { entryFileNames: '[name].js' } } } } } }),
    },
  };
}

/** React Router's server build, as its Vite plugin names the module. */
const SERVER_BUILD = 'virtual:react-router/server-build';

/** The server build's entries of an app whose app directory is `appDirectory` (relative to the project `root`). */
export function appServerInputs(root: string, appDirectory: string): Record<string, string> {
  const inputs: Record<string, string> = { 'react-router': SERVER_BUILD };
  for (const [name, file] of Object.entries(APP_MODULES)) {
    const path = resolve(root, appDirectory, file);
    if (existsSync(path)) inputs[name] = path;
  }
  return inputs;
}

/** React Router's plugins, as the host runs them. */
export function reactRouterHost(): PluginOption[] {
  const plugins = reactRouter();
  if (!plugins.some((plugin) => plugin?.name === PRERENDER_PLUGIN)) {
    // Its name is what leaves it out: if React Router renames it, say so, or it would run beside the host's.
    throw new Error(
      `React Router's "${PRERENDER_PLUGIN}" plugin was not found: vite/react-router-host.ts must leave it out by its new name`,
    );
  }
  return [
    hostEntries(),
    ...plugins.filter((plugin) => plugin?.name !== PRERENDER_PLUGIN),
    entryNames(),
    firstLoadChunks(),
    hostRouteExports(),
  ];
}
