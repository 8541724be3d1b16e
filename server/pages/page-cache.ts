import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Readable } from 'node:stream';
import type { PipeableStream } from 'react-dom/server';
import type { MatchedRoute, PageRequest, RevalidateTarget } from '../../shared/page-seam.ts';
import { checkCachePolicy } from './cache-policy.ts';
import type { CacheEntry, CacheStore } from './cache-store.ts';
import { notStorable, teeBody, type RenderFacts } from './cache-capture.ts';
import type { PageTemplate, PageValues, TemplatePieces } from './page-template.ts';
import { setNewest } from '../../shared/bounded-map.ts';
import { answeredNotModified, sendText } from './page-response.ts';
import { createVariantCap, MAX_VARIANTS_PER_PATH } from './variant-cap.ts';

// Reuse with revalidation (docs/caching.md): a fresh entry is answered without rendering; a
// stale one is answered while one regeneration per entry runs on this replica (single-flight);
// a regeneration that fails keeps the stale entry and is retried after a back-off. Entries are
// keyed by the markers' id (page-template.ts, itself of the release), the kind (document or
// data), crawler or browser (a crawler's page is complete, a browser's streams), the target,
// and the values of the request headers its loaders read.

export interface Policy {
  revalidateMs: number;
  tags: readonly string[];
}

export interface CacheSpec {
  kind: 'document' | 'data';
  /** The page's path, what `revalidate({ path })` names. */
  path: string;
  /** Path and query, and for data the routes named. */
  target: string;
  bot: boolean;
  routeId: string;
  policy: Policy;
  /** How many invalidations this replica had seen when the render began: one since means its page may be out of date. */
  generation: number;
}

/** After a failed regeneration, the next waits this long, doubling up to the ceiling (Next.js retries on the next request; a failing source deserves a pause). */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 300_000;
/** Targets this replica remembers the variants and back-off of: a crawl of a million query strings must not grow it. */
const MAX_REMEMBERED_TARGETS = 10_000;
/** A header value longer than this is not a variant worth keeping: such a request renders without the cache. */
const MAX_VARY_VALUE = 256;
export const CACHE_HEADER = 'x-cache';
/** The one line a cacheable route's unstorable page gets, once per route and reason. */
export const NOT_STORED_MESSAGE = 'page not stored';

export interface PageCacheDeps {
  store: CacheStore;
  template: PageTemplate;
  logger: Logger;
  now?: () => number;
}

export type PageCache = ReturnType<typeof createPageCache>;

export function createPageCache(deps: PageCacheDeps) {
  const { store, template, logger } = deps;
  const now = deps.now ?? Date.now;
  const told = new Set<string>();
  /** The header names each target's entries vary by, as this replica last learned them. */
  const varyNames = new Map<string, readonly string[]>();
  const regenerating = new Set<string>();
  const backOff = new Map<string, { until: number; delayMs: number }>();
  let invalidations = 0;
  const variants = createVariantCap(now);
  /** A memory store answers with the same entry object each time: it is cut at its markers once (a Redis entry is parsed anew anyway). */
  const pieces = new WeakMap<CacheEntry, TemplatePieces>();
  const piecesOf = (entry: CacheEntry) => {
    let known = pieces.get(entry);
    if (known === undefined) pieces.set(entry, (known = template.piecesOf(entry.body)));
    return known;
  };
  store.onInvalidate(() => {
    // An invalidation's entries are gone: what this replica learned of them goes too, and a
    // render that began before it is not stored (it may show what was just changed).
    invalidations += 1;
    varyNames.clear();
    backOff.clear();
    variants.clear();
  });

  const baseKey = (spec: CacheSpec) => `${template.id}|${spec.kind}|${spec.bot ? 'bot' : 'browser'}|${spec.target}`;

  /** The entry's key for these header values; undefined when a value is too long to be a variant. */
  function keyFor(spec: CacheSpec, names: readonly string[], req: Request): string | undefined {
    if (names.length === 0) return baseKey(spec);
    const values = names.map((name) => headerValue(req, name));
    if (values.some((value) => value.length > MAX_VARY_VALUE)) return undefined;
    const vary = createHash('sha256')
      .update(JSON.stringify([names, values]))
      .digest('base64url')
      .slice(0, 22);
    return `${baseKey(spec)}|${vary}`;
  }

  function tell(spec: CacheSpec, reason: string): void {
    const once = `${spec.routeId}\0${reason}`;
    if (told.has(once)) return;
    told.add(once);
    logger.warn({ route: spec.routeId, reason }, NOT_STORED_MESSAGE);
  }

  async function lookup(spec: CacheSpec, req: Request): Promise<CacheEntry | undefined> {
    const base = baseKey(spec);
    const known = varyNames.get(base) ?? [];
    const key = keyFor(spec, known, req);
    if (key === undefined) return undefined;
    const entry = await store.get(key);
    if (entry === undefined) return undefined;
    const names = Object.keys(entry.vary);
    if (names.join() !== known.join()) {
      // Stored by another replica, or its loaders read other headers since: look again by those.
      setNewest(varyNames, base, names, MAX_REMEMBERED_TARGETS);
      const again = keyFor(spec, names, req);
      return again === undefined || again === key ? undefined : matching(await store.get(again), req);
    }
    return matching(entry, req);
  }

  function regenerate(key: string, work: () => Promise<boolean>): void {
    const wait = backOff.get(key);
    if (regenerating.has(key) || (wait !== undefined && now() < wait.until)) return;
    regenerating.add(key);
    void work()
      .catch(() => false)
      .then((stored) => {
        if (stored) return void backOff.delete(key);
        const delayMs = Math.min(RETRY_MAX_MS, (wait?.delayMs ?? RETRY_FIRST_MS / 2) * 2);
        setNewest(backOff, key, { until: now() + delayMs, delayMs }, MAX_REMEMBERED_TARGETS);
      })
      .finally(() => regenerating.delete(key));
  }

  /** Drops this target's entry, by the variants this replica knows of it. */
  async function forget(spec: CacheSpec, req: Request): Promise<void> {
    const key = keyFor(spec, varyNames.get(baseKey(spec)) ?? [], req);
    if (key !== undefined) await store.delete(key);
  }

  async function keep(spec: CacheSpec, req: Request, body: string, facts: RenderFacts): Promise<boolean> {
    if (spec.generation !== invalidations) return false;
    const reason = notStorable(facts);
    if (reason !== undefined) {
      tell(spec, reason);
      // A clean render that may not be stored (a 404 now, one user's page): the old page must not outlive it.
      if (!facts.failed) await forget(spec, req);
      return false;
    }
    const names = [...facts.reads].sort();
    const key = keyFor(spec, names, req);
    if (key === undefined) return false;
    if (!variants.admits(spec.path, key)) return (tell(spec, `its path has ${MAX_VARIANTS_PER_PATH} variants stored already`), false);
    const vary = Object.fromEntries(names.map((name) => [name, headerValue(req, name)]));
    const { revalidateMs, tags } = spec.policy;
    await store.set(key, {
      status: facts.status,
      headers: facts.headers,
      body,
      storedAt: now(),
      revalidateMs,
      path: spec.path,
      tags,
      vary,
    });
    setNewest(varyNames, baseKey(spec), names, MAX_REMEMBERED_TARGETS);
    return true;
  }

  return {
    /** Invalidations seen so far: a spec made now carries it (keep() stores nothing begun before the next). */
    generation: () => invalidations,

    /** Drops this target's entry: its regeneration answered what may not be stored (a 404, a redirect). */
    forget,

    /** The route's `cache` export, checked; a malformed one is said once and the route is never stored. */
    async policyOf(route: MatchedRoute): Promise<Policy | undefined> {
      const checked = checkCachePolicy(await route.cachePolicy());
      if (checked === undefined || 'problem' in checked) {
        if (checked !== undefined && !told.has(route.routeId)) {
          told.add(route.routeId);
          logger.warn({ route: route.routeId, reason: checked.problem }, NOT_STORED_MESSAGE);
        }
        return undefined;
      }
      return checked;
    },

    /** The values this answer fills in, or undefined when one cannot be written as it is (then no cache). */
    valuesOf(values: PageValues): PageValues | undefined {
      return template.fits(values) ? values : undefined;
    },

    /** The request rendered as a template: markers for the per-request values, header reads noted. */
    asTemplate(request: PageRequest): PageRequest {
      const markers = template.markers(request.page.trace !== undefined);
      const page = { ...request.page, requestId: markers.requestId, hostname: markers.hostname, trace: markers.trace };
      // The context's id too, so a loader that shows it never freezes one visitor's into the page (its log getter kept as one).
      const context = Object.defineProperties({}, Object.getOwnPropertyDescriptors(request.context)) as PageRequest['context'];
      context.id = markers.requestId;
      return { ...request, nonce: markers.nonce, page, context, headerReads: new Set() };
    },

    /**
     * Answers from the store when it holds this page: true when it did. A stale entry starts one
     * regeneration (`work` resolves true when it stored a new entry).
     */
    async serve(spec: CacheSpec, req: Request, res: Response, values: PageValues, work: () => Promise<boolean>): Promise<boolean> {
      const entry = await lookup(spec, req);
      if (entry === undefined) return (res.setHeader(CACHE_HEADER, 'MISS'), false);
      const age = now() - entry.storedAt;
      const fresh = age < entry.revalidateMs;
      if (!fresh) regenerate(keyFor(spec, Object.keys(entry.vary), req)!, work);
      res.setHeader(CACHE_HEADER, fresh ? 'HIT' : 'STALE');
      res.setHeader('Age', String(Math.max(0, Math.floor(age / 1000))));
      if (answeredNotModified(req, res, entry.status, entry.headers)) return true;
      sendText(res, entry.status, entry.headers, template.fillPieces(piecesOf(entry), values));
      return true;
    },

    /** A fresh render's body for the client, filled as it streams; its template is stored when it ends, if the rule allows. */
    tee(spec: CacheSpec, req: Request, body: PipeableStream | Readable, values: PageValues, facts: () => RenderFacts): Readable {
      return teeBody(body, template.filler(values), (text) => {
        if (text !== undefined) void keep(spec, req, text, facts()).catch(() => undefined);
      });
    },

    keep,

    /** Drops the entries of a path or tag here and, through the store, on every replica. */
    revalidate(target: RevalidateTarget): Promise<number> {
      return store.invalidate(target).catch(() => 0);
    },
  };
}

function headerValue(req: Request, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** An entry answers a request only when the headers it read have the values they had then. */
function matching(entry: CacheEntry | undefined, req: Request): CacheEntry | undefined {
  if (entry === undefined) return undefined;
  return Object.entries(entry.vary).every(([name, value]) => headerValue(req, name) === value) ? entry : undefined;
}
