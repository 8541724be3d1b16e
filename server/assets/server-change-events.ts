import { relative } from 'node:path';
import type { Plugin } from 'vite';
import { SERVER_CHANGE_EVENT, type ServerChange } from '../../shared/server-change.ts';

/**
 * Development: an edit of a module only the server runs (a `*.server.ts` loader or action, or
 * anything only such modules import) reaches the open page as fresh data, without a reload.
 *
 * Vite has already invalidated the file and its importers in the SSR module graph when this hook
 * runs (its watcher calls the graph's onFileChange before any hotUpdate hook), so the next
 * ssrLoadModule of the renderer, and the loader it imports, evaluates the new code. The browser
 * has no module to update for such a file and would do nothing: it is told instead, and its
 * router revalidates (client/hydrate-page.tsx). A file the browser runs too is left to the
 * client's own HMR (Fast Refresh, or a full reload), which also reloads its data.
 * Vite's hook: https://vite.dev/guide/api-environment-plugins#the-hotupdate-hook
 */
export function serverChangeEvents(root: string): Plugin {
  return {
    name: 'react-ssr-host:server-change-events',
    apply: 'serve',
    hotUpdate({ file, modules, server }) {
      if (this.environment.name !== 'ssr' || modules.length === 0) return;
      const client = server.environments.client;
      if ((client.moduleGraph.getModulesByFile(file)?.size ?? 0) > 0) return;
      const data: ServerChange = { file: relative(root, file).split('\\').join('/') };
      client.hot.send({ type: 'custom', event: SERVER_CHANGE_EVENT, data });
    },
  };
}
