import { join } from 'node:path';
import type { ViteDevServer } from 'vite';

/** Stylesheets Vite serves as CSS when linked (a `<link>` asks with `Accept: text/css`). */
const STYLESHEET = /\.(?:css|less|sass|scss|styl|stylus|pcss|postcss)$/;

/**
 * Development: the stylesheets these source modules import, found in the server's module graph
 * (React Router's dev server collects a route's CSS the same way, so a page is styled at its
 * first paint and without JavaScript). The server rendered the matched routes before it links
 * their styles, so their modules are in the graph; one not loaded yet has none to link, and its
 * import still injects its CSS in the browser. Packages' modules are not walked.
 */
export function moduleGraphStyles(vite: ViteDevServer, root: string) {
  return (sources: readonly string[]): readonly string[] => {
    const graph = vite.environments.ssr.moduleGraph;
    const styles = new Set<string>();
    const seen = new Set<unknown>();
    type Node = NonNullable<ReturnType<typeof graph.getModuleById>>;
    const visit = (node: Node) => {
      if (seen.has(node) || node.file === null || node.file.includes('/node_modules/')) return;
      seen.add(node);
      if (STYLESHEET.test(node.url)) styles.add(node.url);
      node.importedModules.forEach(visit);
    };
    for (const source of sources) graph.getModulesByFile(join(root, source))?.forEach(visit);
    return [...styles];
  };
}
