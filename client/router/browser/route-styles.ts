// A page's stylesheets on a client navigation: applied before the page renders, so it never
// shows unstyled (React Router's framework mode links a route's CSS the same way, and Vite's
// own preload helper waits for a chunk's CSS before the chunk runs). A prefetch only fetches them.

const applied = new Map<string, Promise<void>>();

/** The stylesheet the server linked or wrote into the page (React writes `data-href` on a style resource, hrefs space-separated). */
function inDocument(href: string): boolean {
  const quoted = CSS.escape(href);
  return document.querySelector(`link[rel="stylesheet"][href="${quoted}"], style[data-href~="${quoted}"]`) !== null;
}

/**
 * Links each stylesheet not in the page yet, after the others (the order the server's document
 * has), and resolves once they have loaded. One that fails to load is not waited for: the page
 * then renders unstyled rather than not at all.
 */
export function applyStyles(hrefs: readonly string[]): Promise<unknown> {
  return Promise.all(
    hrefs.map((href) => {
      let loaded = applied.get(href);
      if (loaded === undefined) {
        loaded = inDocument(href)
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
              link.addEventListener('load', () => resolve(), { once: true });
              link.addEventListener('error', () => resolve(), { once: true });
              document.head.append(link);
            });
        applied.set(href, loaded);
      }
      return loaded;
    }),
  );
}

const preloaded = new Set<string>();

/** Fetches stylesheets into the cache without applying them to this page. */
export function preloadStyles(hrefs: readonly string[]): void {
  for (const href of hrefs) {
    if (preloaded.has(href) || applied.has(href) || inDocument(href)) continue;
    preloaded.add(href);
    document.head.append(Object.assign(document.createElement('link'), { rel: 'preload', as: 'style', href }));
  }
}
