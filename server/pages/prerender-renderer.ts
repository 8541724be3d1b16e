import type { MatchedRoute, PageRequest, Renderer, RequestContext } from '../../shared/page-seam.ts';

// The build renders prerendered pages through the app the server runs (server/prerender.ts):
// the same middleware, page handlers and renderer, answering over HTTP. Only at the seam
// (shared/page-seam.ts) does the build change what a page request carries, so that nothing of
// one request is frozen into bytes every request will get (docs/caching.md, "Prerendered pages"):
// the CSP nonce is a marker the build removes, the request id and host name are empty (the
// browser reads its own), there is no trace and no browser Sentry, and the whole page is
// rendered before it is sent (as for a crawler). It also notes what the build's checks need: the
// request headers loaders read, and the headers the routes set.

/** What the build saw of one render. */
export interface RenderNote {
  /** Request headers the routes' loaders and middleware read, by name (`*`: all). */
  reads: Set<string>;
  /** The headers the routes set (a loader's `data(…, { headers })`, a `headers` export). */
  headers: Headers;
}

export interface PrerenderingRenderer {
  renderer: Renderer;
  /** What a request's render left, by the request id the host gave it (its `X-Request-Id`). */
  noteOf(requestId: string): RenderNote | undefined;
}

/** The request for a prerendered page: the same for every visitor but its signals and session (empty, no cookie was sent). */
function asPrerender(request: PageRequest, nonce: string, reads: Set<string>): PageRequest {
  const context = Object.defineProperties({}, Object.getOwnPropertyDescriptors(request.context)) as RequestContext;
  context.id = '';
  const page = { ...request.page, requestId: '', hostname: '', trace: undefined, sentry: undefined };
  return { ...request, nonce, waitForAll: true, headerReads: reads, context, page };
}

export function prerenderingRenderer(renderer: Renderer, nonce: string): PrerenderingRenderer {
  const notes = new Map<string, RenderNote>();

  /**
   * Runs the render and returns its own promise, which the page handler awaits: a failure's
   * stack, and so its digest, is the one production's render of the page would have.
   */
  function watched<T>(request: PageRequest, render: (request: PageRequest) => Promise<T>): Promise<T> {
    const note: RenderNote = { reads: new Set(), headers: new Headers() };
    notes.set(request.context.id, note);
    const work = render(asPrerender(request, nonce, note.reads));
    work.then(
      (answer) => {
        const headers = (answer as { headers?: unknown }).headers;
        if (headers instanceof Headers) note.headers = headers;
      },
      () => undefined,
    );
    return work;
  }

  function match(url: URL, allowDiagnostics: () => boolean): MatchedRoute | undefined {
    const route = renderer.match(url, allowDiagnostics);
    if (route === undefined || route.isResource) return route;
    return {
      ...route,
      document: (request, onError) => watched(request, (prerender) => route.document(prerender, onError)),
      data: (request, routeIds, onError) => watched(request, (prerender) => route.data(prerender, routeIds, onError)),
    };
  }

  return { renderer: { ...renderer, match }, noteOf: (requestId) => notes.get(requestId) };
}
