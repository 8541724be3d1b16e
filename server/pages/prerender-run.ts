import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { SHAREABLE_PAGE } from '../edge/send-response.ts';

// The build's renders (server/prerender.ts runs the app; docs/caching.md, "Prerendered pages"):
// every path the app's react-router.config.ts lists in `prerender` (React Router's server build
// has them resolved), its document and the navigation data a browser asks for (`<path>.data`),
// each fetched from the app as a browser would and checked. Anything that could not be served to
// every visitor as it is becomes one line saying why, and the build fails.

/** Renders at once: loaders that wait (the guide's streamed section) overlap; more would only contend for the build's cores. */
const CONCURRENCY = 4;
/** Headers of an answer that are this one request's, never a prerendered file's (those are the host's per answer). */
const PER_ANSWER =
  /^(set-cookie|content-security-policy|content-security-policy-report-only|x-request-id|date|connection|keep-alive|transfer-encoding|content-length|vary)$/i;

export interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RenderedAnswer {
  body: string;
  headers: Headers;
}

export interface RenderedPage {
  path: string;
  route: string;
  document: RenderedAnswer;
  /** Its navigation data (`<path>.data`), by the `_routes` a navigation names (none: every route's). */
  data: Record<string, RenderedAnswer>;
}

export interface PrerenderRunDeps {
  /** The app, listening on loopback. */
  origin: string;
  /** The Host header the build's requests carry (a loader's `request.url` is on it when PUBLIC_ORIGIN is unset). */
  host: string;
  /** The paths React Router's build lists (its `prerender` export). */
  paths: readonly string[];
  /** The id of the route a path renders (the manifest names it, for the access line). */
  routeOf(path: string): string;
  /** The request headers a request's loaders read, by its request id (../render/prerender-renderer.ts). */
  readsOf(requestId: string): ReadonlySet<string> | undefined;
  /** Why the answer to this request failed, from what the host recorded (a digest, a source line), or undefined. */
  failureOf(requestId: string): string | undefined;
}

/** A GET of the app as the build's client: no cookie, no compression, the one header Host. */
export function fetchFromApp(origin: string, host: string, path: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers: { host, 'accept-encoding': 'identity' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Why an answer cannot be one file for every visitor, or undefined when it can. */
function problemOf(deps: PrerenderRunDeps, answer: Fetched, requestId: string): string | undefined {
  const failure = deps.failureOf(requestId);
  if (failure !== undefined) return failure;
  const { status, headers } = answer;
  if (status >= 300 && status < 400) return `it answered a redirect (${status} to ${String(headers.location)}), not a page`;
  if (status !== 200) return `it answered ${status}, not 200`;
  if (headers['set-cookie'] !== undefined) return 'it set a cookie';
  // The host's own rule: an answer that read the session (or held data) is no-store (server/edge/send-response.ts).
  const cacheControl = String(headers['cache-control'] ?? '');
  if (/\b(no-store|private)\b/i.test(cacheControl) && !/^private, no-cache$/i.test(cacheControl))
    return `its answer is one visitor's (Cache-Control: ${cacheControl}): its loaders or middleware read the session, or its routes said so`;
  const reads = [...(deps.readsOf(requestId) ?? [])];
  if (reads.length > 0) {
    const named = reads.includes('*') ? 'every request header' : `the ${reads.join(', ')} request header${reads.length > 1 ? 's' : ''}`;
    return `its loaders or middleware read ${named}, and a prerendered page is the same for every request`;
  }
  return undefined;
}

/** The answer's own headers: what a prerendered file is served with, but for the host's per-answer ones. */
function ownHeaders(headers: IncomingHttpHeaders): Headers {
  const own = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || PER_ANSWER.test(name) || (name.startsWith('x-') && name !== 'x-remix-response')) continue;
    // The host's own default for a page whose routes said nothing: a file served to everyone has its own (./prerendered-pages.ts).
    if (name === 'cache-control' && value === SHAREABLE_PAGE) continue;
    own.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return own;
}

/** React Router's data URL of a page (its single fetch): `/about.data`, `/_.data` for `/`. */
export const dataPathOf = (path: string) => (path === '/' ? '/_.data' : `${path.replace(/\/$/, '/_')}.data`);

async function renderPath(deps: PrerenderRunDeps, path: string): Promise<RenderedPage | string> {
  const get = async (target: string) => {
    const answer = await fetchFromApp(deps.origin, deps.host, target);
    const requestId = String(answer.headers['x-request-id']);
    return { answer, problem: problemOf(deps, answer, requestId) };
  };
  const document = await get(path);
  if (document.problem !== undefined) return `path ${path}: ${document.problem}`;
  const data = await get(dataPathOf(path));
  if (data.problem !== undefined) return `path ${path} (its navigation data): ${data.problem}`;
  return {
    path,
    route: deps.routeOf(path),
    document: { body: document.answer.body, headers: ownHeaders(document.answer.headers) },
    data: { '': { body: data.answer.body, headers: ownHeaders(data.answer.headers) } },
  };
}
/** Runs `work` over `items`, `width` at a time, in order of the results. */
async function pool<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

/** Every prerendered page of the app, or the lines that say why the build must fail. */
export async function prerenderAll(deps: PrerenderRunDeps): Promise<{ pages: RenderedPage[]; problems: string[] }> {
  // Every page is rendered all the same: one build says everything that is wrong.
  const rendered = await pool(deps.paths, CONCURRENCY, (path) => renderPath(deps, path));
  return {
    pages: rendered.filter((page) => typeof page !== 'string'),
    problems: rendered.filter((page) => typeof page === 'string'),
  };
}
