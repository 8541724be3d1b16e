import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { negotiateCoding, type Coding } from '../assets/accept-encoding.ts';
import { conditionalAnswer } from '../assets/conditional-range.ts';
import { httpError } from '../failures/errors.ts';
import { isHostError } from '../failures/error-status.ts';
import type { RequestTarget } from '../observe/url-path.ts';
import { hashedPolicy } from './inline-hashes.ts';
import { CACHE_HEADER } from './page-cache.ts';
import type { PrerenderedAnswer, PrerenderedBytes, PrerenderedPage, PrerenderManifest } from './prerender-manifest.ts';
import type { TraceMeta } from '../../shared/runtime.ts';

// Pages prerendered at build, answered from their files before any page handler (docs/caching.md,
// "Prerendered pages"): a GET or HEAD of a listed path without a query, or of its navigation data
// for a set of routes the build wrote. The file in the coding the client accepts is sent as it
// is (never compressed again), with a strong ETag, 304, Range and HEAD (../assets/conditional-range.ts).
// Anything else (another method, a query, a set of routes not written) goes on to be rendered.

/** Answers from a prerendered file say so, where stored pages say HIT, STALE or MISS (page-cache.ts). */
export const PRERENDERED = 'PRERENDERED';
/**
 * Shared caches may keep it (nothing in it is one visitor's: the build refuses such a page), and
 * everyone asks again before reuse, which an ETag makes a 304: a release changes the page, so it
 * is never `immutable`.
 */
const PRERENDERED_CACHE_CONTROL = 'public, no-cache';
/** What the process holds of the files in memory, least recently used out; the rest is read from disk. */
const MAX_MEMORY_BYTES = 32 * 1024 * 1024;
const TYPES = { document: 'text/html; charset=utf-8', data: 'text/x-script' };
/** React Router's navigation data (single fetch): `/about.data`, `/_.data` for `/`. */
const DATA_SUFFIX = /(\/_)?\.data$/;

interface Found {
  page: PrerenderedPage;
  kind: 'document' | 'data';
  answer: PrerenderedAnswer;
}

/** The file bytes by name, the most recently used kept up to `maxBytes`. */
function fileMemory(dir: string, maxBytes: number) {
  const held = new Map<string, Buffer>();
  let total = 0;
  return async ({ file, bytes }: PrerenderedBytes): Promise<Buffer> => {
    const known = held.get(file);
    if (known !== undefined) {
      held.delete(file);
      held.set(file, known);
      return known;
    }
    const read = await readFile(join(dir, file));
    if (read.length !== bytes) throw new Error(`${file} is ${read.length} bytes, not the ${bytes} the manifest says`);
    // Two requests may have read the same file at once: the second replaces the first, counted once.
    total += read.length - (held.get(file)?.length ?? 0);
    held.delete(file);
    held.set(file, read);
    for (const [name, oldest] of held) {
      if (total <= maxBytes) break;
      held.delete(name);
      total -= oldest.length;
    }
    return read;
  };
}

/** The route's own Cache-Control, never `immutable`; the host's when it set none. */
function cacheControl(headers: Record<string, string>): string {
  const own = Object.entries(headers).find(([name]) => name.toLowerCase() === 'cache-control')?.[1];
  if (own === undefined) return PRERENDERED_CACHE_CONTROL;
  return own
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.toLowerCase() !== 'immutable')
    .join(', ');
}

/** `traceMeta`: the answer's own trace, named in its Server-Timing (a page made at build has none written in it). */
export function servePrerendered(
  dir: string,
  manifest: PrerenderManifest,
  logger: Logger,
  traceMeta?: () => TraceMeta | undefined,
): RequestHandler {
  const pages = new Map(Object.entries(manifest.pages));
  const read = fileMemory(dir, MAX_MEMORY_BYTES);
  const told = new Set<string>();

  function find({ path, query }: RequestTarget): Found | undefined {
    // A query is the page's loaders' to read at request time; React Router's `_routes` (a navigation that needs only some) too.
    if (query !== '') return undefined;
    const data = DATA_SUFFIX.exec(path);
    if (data === null) {
      const page = pages.get(path);
      return page && { page, kind: 'document', answer: page.document };
    }
    const page = pages.get(path.slice(0, data.index) || '/');
    const answer = page?.data[''];
    return answer && page && { page, kind: 'data', answer };
  }

  async function send(req: Request, res: Response, { page, kind, answer }: Found): Promise<void> {
    const available = new Set(Object.keys(answer.codings).filter((coding) => coding !== 'identity') as Coding[]);
    const coding = negotiateCoding(req.headers['accept-encoding'], available) ?? 'identity';
    const representation = answer.codings[coding] ?? answer.codings.identity;
    const decided = conditionalAnswer(req.method, req.headers, representation.etag, representation.bytes);
    if (decided.status === 412) throw httpError(412, 'If-Match names another version of this page');
    if (decided.status === 416) {
      const headers = { 'Content-Range': `bytes */${representation.bytes}` };
      throw httpError(416, `The range asked for is past the end of this page (${representation.bytes} bytes)`, { headers });
    }
    const body = decided.status === 304 || req.method === 'HEAD' ? undefined : await read(representation);
    if (res.headersSent || res.destroyed) return;
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (available.size > 0) res.vary('Accept-Encoding');
    res.set({ 'Cache-Control': cacheControl(answer.headers), ETag: representation.etag, [CACHE_HEADER]: PRERENDERED });
    if (kind === 'document') {
      // Its bytes (and ETag) are the build's, so the trace rides beside them, where the browser's
      // Navigation Timing reads it (https://www.w3.org/TR/server-timing/) and so does the host's failure report.
      const trace = traceMeta?.();
      if (trace !== undefined) res.append('Server-Timing', `traceparent;desc="${trace.traceparent}"`);
      const policy = res.getHeader('Content-Security-Policy');
      const nonce = res.locals.cspNonce;
      if (typeof policy === 'string' && nonce !== undefined)
        res.setHeader('Content-Security-Policy', hashedPolicy(policy, nonce, page.document.csp));
    }
    if (decided.status === 304) return void res.status(304).end();
    // setHeader: Express's res.set would add a charset to text/x-script, which React Router's own answer has not.
    res.setHeader('Content-Type', TYPES[kind]);
    res.setHeader('Accept-Ranges', 'bytes');
    if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
    const { start, end } = decided.status === 206 ? decided : { start: 0, end: representation.bytes - 1 };
    if (decided.status === 206) res.status(206).setHeader('Content-Range', `bytes ${start}-${end}/${representation.bytes}`);
    res.setHeader('Content-Length', String(end - start + 1));
    res.end(body?.subarray(start, end + 1));
  }

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const found = find(res.locals.target!);
    if (found === undefined) return next();
    res.locals.route = `${found.kind === 'document' ? 'page' : 'data'}:${found.page.route}`;
    if (found.kind === 'data') res.locals.api = true;
    send(req, res, found).catch((error: unknown) => {
      if (!(error instanceof Error) || isHostError(error)) return next(error);
      // A file gone or changed since start-up: said once, and the page is rendered as if never prerendered.
      if (!told.has(error.message)) logger.warn({ dir, error: error.message }, 'prerendered file unreadable: rendering the page');
      told.add(error.message);
      next();
    });
  };
}
