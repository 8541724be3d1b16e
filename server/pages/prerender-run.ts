import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { BuiltModules, ListedRoute, Renderer } from '../../shared/page-seam.ts';
import { dataUrl } from '../../shared/route-data.ts';
import { prerenderPathsOf } from './prerender-paths.ts';
import type { RenderNote } from './prerender-renderer.ts';

// The build's renders (server/prerender.ts runs the app; docs/caching.md, "Prerendered pages"):
// every path each route's `prerender` export lists, its document and the navigation data a
// browser may ask for, each fetched from the app as a browser would and checked. Anything that
// could not be served to every visitor as it is becomes one line saying why, and the build fails.

/** Renders at once: loaders that wait (the guide's streamed section) overlap; more would only contend for the build's cores. */
const CONCURRENCY = 4;

export interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RenderedPage {
  path: string;
  route: string;
  document: { body: string; headers: Headers };
  /** Each by the `_routes` value a navigation sends. */
  data: Record<string, { body: string; headers: Headers }>;
}

export interface PrerenderRunDeps {
  /** The app, listening on loopback. */
  origin: string;
  /** The Host header the build's requests carry (a loader's `request.url` is on it when PUBLIC_ORIGIN is unset). */
  host: string;
  renderer: Renderer;
  modules: BuiltModules;
  noteOf(requestId: string): RenderNote | undefined;
  /** Why the answer to this request failed, from what the host recorded (a digest, a source line), or undefined. */
  failureOf(requestId: string): string | undefined;
  /** A prerender() function that threw, described the same way. */
  describeThrown(error: unknown): string;
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
function problemOf(deps: PrerenderRunDeps, answer: Fetched, note: RenderNote | undefined, requestId: string): string | undefined {
  const failure = deps.failureOf(requestId);
  if (failure !== undefined) return failure;
  const { status, headers } = answer;
  if (status >= 300 && status < 400) return `it answered a redirect (${status} to ${String(headers.location)}), not a page`;
  if (status !== 200) return `it answered ${status}, not 200`;
  if (headers['set-cookie'] !== undefined) return 'it set a cookie';
  // The host's own rule: an answer that read the session (or held data) is no-store (server/pages/page-response.ts).
  const cacheControl = String(headers['cache-control'] ?? '');
  if (/\b(no-store|private)\b/i.test(cacheControl) && !/^private, no-cache$/i.test(cacheControl))
    return `its answer is one visitor's (Cache-Control: ${cacheControl}): its loaders or middleware read the session, or its routes said so`;
  const reads = [...(note?.reads ?? [])];
  if (reads.length > 0) {
    const named = reads.includes('*') ? 'every request header' : `the ${reads.join(', ')} request header${reads.length > 1 ? 's' : ''}`;
    return `its loaders or middleware read ${named}, and a prerendered page is the same for every request`;
  }
  return undefined;
}

/** The routes whose data a navigation to the branch may ask for: each suffix of those with server data (client/router/browser/prefetch.ts). */
async function dataSets(deps: PrerenderRunDeps, path: string): Promise<string[][]> {
  const branch = (await deps.renderer.match(new URL(path, deps.origin), () => false)?.describe(deps.modules)) ?? [];
  const ids = branch.filter((route) => route.data === true && route.clientLoader === undefined).map((route) => route.id);
  return ids.map((_, at) => ids.slice(at));
}

async function renderPath(deps: PrerenderRunDeps, route: ListedRoute, path: string): Promise<RenderedPage | string> {
  const get = async (target: string) => {
    const answer = await fetchFromApp(deps.origin, deps.host, target);
    const requestId = String(answer.headers['x-request-id']);
    const note = deps.noteOf(requestId);
    return { answer, problem: problemOf(deps, answer, note, requestId), headers: note?.headers ?? new Headers() };
  };
  const at = `route ${route.id}, path ${path}`;
  const document = await get(path);
  if (document.problem !== undefined) return `${at}: ${document.problem}`;
  const page: RenderedPage = { path, route: route.id, document: { body: document.answer.body, headers: document.headers }, data: {} };
  for (const ids of await dataSets(deps, path)) {
    const data = await get(dataUrl(path, ids));
    if (data.problem !== undefined) return `${at} (its navigation data for ${ids.join(',')}): ${data.problem}`;
    page.data[ids.join(',')] = { body: data.answer.body, headers: data.headers };
  }
  return page;
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
  const problems: string[] = [];
  const targets: { route: ListedRoute; path: string }[] = [];
  const leafOf = (path: string) => deps.renderer.match(new URL(path, deps.origin), () => false)?.routeId;
  for (const route of deps.renderer.listRoutes()) {
    const listed = await prerenderPathsOf(route, leafOf);
    if (listed === undefined) continue;
    if ('problem' in listed) problems.push(`route ${route.id}: ${listed.problem}`);
    else if ('thrown' in listed) problems.push(`route ${route.id}: its prerender() function threw: ${deps.describeThrown(listed.thrown)}`);
    else targets.push(...listed.paths.map((path) => ({ route, path })));
  }
  // The other routes' pages are rendered all the same: one build says everything that is wrong.
  const rendered = await pool(targets, CONCURRENCY, ({ route, path }) => renderPath(deps, route, path));
  return {
    pages: rendered.filter((page) => typeof page !== 'string'),
    problems: [...problems, ...rendered.filter((page) => typeof page === 'string')],
  };
}
