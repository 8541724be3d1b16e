import type { Request, RequestHandler, Response } from 'express';
import type { Readable } from 'node:stream';
import type { Config } from '../config/config.ts';
import { displayHostname, requestOrigin } from '../edge/request-origin.ts';
import { isBot } from '../edge/is-bot.ts';
import type { TraceMeta } from '../../shared/runtime.ts';
import { CACHE_HEADER, type CacheSpec, type LookupKey, type PageCache } from './page-cache.ts';
import type { RenderFacts } from './cache-capture.ts';
import type { PageValues } from './page-template.ts';
import type { Deadline } from '../edge/request-deadline.ts';

// Stored pages around React Router's handler (docs/caching.md): a page (or its navigation data)
// that the store holds is answered here, before any route is matched or rendered (`answer`, a
// middleware before the handler); one it does not hold, whose route asks to be stored, is
// rendered by the handler as a template (`storing`) and kept once its answer ended, if the rule
// allows. Only a page's one spelling is ever looked up or kept: any other is redirected first
// (server/render/react-router-handler.ts), so it is never found here.

const READS = new Set(['GET', 'HEAD']);
/** React Router's navigation data (single fetch): `/about.data`, `/_.data` for `/`. */
const DATA_SUFFIX = /(\/_)?\.data$/;

/** What the handler needs to render and keep a template (server/render/react-router-handler.ts). */
export interface Storing {
  /** The values the page is rendered with: markers where the per-request values go. */
  markers: PageValues;
  /** Filled with the request headers its loaders read. */
  headerReads: Set<string>;
  /** The body for the client, filled as it streams; the template is kept once it ended, if the rule allows. */
  tee(body: Readable, response: globalThis.Response, perUser: () => boolean, deadline: Deadline): Readable;
}

export interface StoredPagesDeps {
  config: Config;
  cache: PageCache;
  traceMeta?: () => TraceMeta | undefined;
  /** Renders the page of `key` anew with no client waiting and keeps it: resolves true when it stored it (../render/regeneration.ts). */
  regenerate(key: LookupKey, req: Request, res: Response): Promise<boolean>;
}

export type StoredPages = ReturnType<typeof createStoredPages>;

export function createStoredPages(deps: StoredPagesDeps) {
  const { config, cache } = deps;

  /** What a read is looked up by: its kind, crawler or browser, and its target (origin, path and query as sent). */
  function keyOf(req: Request, res: Response): LookupKey | undefined {
    if (!READS.has(req.method)) return undefined;
    const { path, query } = res.locals.target!;
    const data = DATA_SUFFIX.exec(path);
    const pagePath = data === null ? path : path.slice(0, data.index) || '/';
    // The origin too: without PUBLIC_ORIGIN a loader's request.url carries the request's own Host.
    const target = `${requestOrigin(config, res)}${path}${query}`;
    return { kind: data === null ? 'document' : 'data', path: pagePath, target, bot: isBot(req.get('user-agent')) };
  }

  /** This answer's own values, or undefined when one cannot be written into a page as it is (then no store). */
  const valuesOf = (req: Request, res: Response): PageValues | undefined =>
    cache.valuesOf({
      nonce: res.locals.cspNonce ?? '',
      requestId: String(req.id),
      hostname: displayHostname(config, res),
      trace: deps.traceMeta?.(),
    });

  /** A HIT or a STALE answered from the store; otherwise on to the handler, the key noted for it unless its path is never stored. */
  const answer: RequestHandler = async (req, res, next) => {
    const key = keyOf(req, res);
    const values = key && !cache.neverStored(key.path) ? valuesOf(req, res) : undefined;
    if (key === undefined || values === undefined) return next();
    if (await cache.serve(key, req, res, values, () => deps.regenerate(key, req, res))) return;
    res.locals.storeKey = key;
    next();
  };

  /**
   * For a read of `route` that the store did not hold: how to render and keep it, when its route
   * asks to be stored; a resource route's answer never is. `diagnostics`: it was matched in the
   * table with the diagnostic routes, which is not every request's, so nothing of its path is learned.
   */
  function storing(
    req: Request,
    res: Response,
    route: { id: string; cache: unknown; resource: boolean },
    values: PageValues,
    diagnostics: boolean,
  ): Storing | undefined {
    const key = res.locals.storeKey as LookupKey | undefined;
    const policy = key && cache.policyOf(route.id, route.resource ? undefined : route.cache, diagnostics ? undefined : key.path);
    if (key === undefined || policy === undefined) return undefined;
    res.setHeader(CACHE_HEADER, 'MISS');
    const spec: CacheSpec = cache.specOf({ ...key, routeId: route.id, policy });
    const headerReads = new Set<string>();
    return {
      markers: cache.markersOf(spec),
      headerReads,
      tee(body, response, perUser, deadline) {
        const facts = (): RenderFacts => ({
          status: response.status,
          headers: storedHeaders(res, response),
          perUser: perUser(),
          setCookie: res.hasHeader('Set-Cookie'),
          failed: (res.locals.failures?.size ?? 0) > 0 || deadline.renderSignal.aborted,
          reads: headerReads,
        });
        return cache.tee(spec, req, body, values, facts);
      },
    };
  }

  return { answer, storing };
}

/** The headers a stored answer keeps: its routes' (React Router's Response) and its Cache-Control as sent; never a cookie. */
function storedHeaders(res: Response, response: globalThis.Response): Record<string, string> {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'set-cookie'));
  const control = res.getHeader('Cache-Control');
  return control === undefined ? headers : { ...headers, 'cache-control': String(control) };
}
