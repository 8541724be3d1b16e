import { relative } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

// The host's own route exports (`cache`: docs/caching.md; `bodyLimits`: docs/forms.md) are read on
// the server only. React Router's browser build keeps a route's known client exports alone, but
// in development its transform removes only its own server exports (loader, action, middleware,
// headers): a route module still exporting `cache` in the browser is no Fast Refresh boundary, and
// every edit of it reloaded the page instead of updating it in place. Here those exports lose
// their `export` keyword in the browser's modules of routes: the same code, nothing exported.

const HOST_ROUTE_EXPORTS = new Set(['cache', 'bodyLimits']);
const MENTIONS = /\bexport\s+const\s+(cache|bodyLimits)\b/;

/** React Router's plugin context on the resolved config (@react-router/dev's vite.js puts it there): its app directory and routes. */
interface RouterContext {
  reactRouterConfig: { appDirectory: string; routes: Record<string, { file: string }> };
}

interface Node {
  type: string;
  start: number;
  end: number;
  declaration?: (Node & { declarations?: { id: { type: string; name?: string } }[] }) | null;
}

export function hostRouteExports(): Plugin {
  let context: RouterContext | undefined;
  const isRoute = (id: string) => {
    const config = context?.reactRouterConfig;
    if (config === undefined) return false;
    const file = relative(config.appDirectory, id.split('?')[0]!).split('\\').join('/');
    return Object.values(config.routes).some((route) => route.file === file);
  };
  return {
    name: 'react-ssr-host:host-route-exports',
    enforce: 'post',
    configResolved(config: ResolvedConfig) {
      context = (config as ResolvedConfig & { __reactRouterPluginContext?: RouterContext }).__reactRouterPluginContext;
    },
    transform(code, id, options) {
      if (options?.ssr || !MENTIONS.test(code) || !isRoute(id)) return undefined;
      const program = this.parse(code) as unknown as { body: Node[] };
      let out = code;
      for (const node of program.body) {
        const declared = node.type === 'ExportNamedDeclaration' ? node.declaration : undefined;
        if (declared?.type !== 'VariableDeclaration') continue;
        if (!declared.declarations?.every((d) => d.id.type === 'Identifier' && HOST_ROUTE_EXPORTS.has(d.id.name!))) continue;
        // `export ` becomes spaces: no code moves, so the source map stays as it is (map: null).
        out = out.slice(0, node.start) + ' '.repeat(declared.start - node.start) + out.slice(declared.start);
      }
      return out === code ? undefined : { code: out, map: null };
    },
  };
}
