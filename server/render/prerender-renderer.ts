import type { PageRenderer, RenderRequest } from './page-renderer.ts';

// The build renders prerendered pages through the app the server runs (server/prerender.ts):
// the same middleware, handler and React Router, answering over HTTP. Only the renderer's
// request changes, so that nothing of one request is frozen into bytes every request will get
// (docs/caching.md, "Prerendered pages"): the CSP nonce is one the build removes, the request id
// and host name are empty (the browser reads its own), there is no trace, and the whole page is
// rendered before it is sent (as for a crawler). It also notes which request headers the app's
// loaders and middleware read, for the build's checks.

export interface PrerenderingRenderer {
  renderer: PageRenderer;
  /** The request headers a render's loaders and middleware read, by the request id the host gave it (its `X-Request-Id`). */
  readsOf(requestId: string): ReadonlySet<string> | undefined;
}

export function prerenderingRenderer(renderer: PageRenderer, nonce: string): PrerenderingRenderer {
  const reads = new Map<string, Set<string>>();
  const render = (request: RenderRequest, routeId: string | undefined) => {
    const noted = new Set<string>();
    reads.set(String(request.req.id), noted);
    const values = { nonce, requestId: '', hostname: '' };
    return renderer.render({ ...request, values, bot: true, headerReads: noted }, routeId);
  };
  return { renderer: { ...renderer, render }, readsOf: (requestId) => reads.get(requestId) };
}
