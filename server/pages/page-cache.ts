import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Readable } from 'node:stream';
import type { RevalidateTarget } from '../../shared/host-context.ts';
import type { InvalidationChannel } from '../fleet/redis-invalidations.ts';
import { checkCachePolicy } from './cache-policy.ts';
import type { CacheEntry, CacheStore } from './cache-store.ts';
import { notStorable, teeBody, type RenderFacts } from './cache-capture.ts';
import type { PageTemplate, PageValues, TemplatePieces } from './page-template.ts';
import { answeredNotModified, sendText } from '../edge/send-response.ts';
import { admitVariant, MAX_VARIANTS_PER_PATH } from './variant-cap.ts';
import { createCacheKeys, headerValue, matching } from './cache-key.ts';
import { createInvalidationLog } from './invalidation-log.ts';
import { createLearnedPaths, remember } from './learned-paths.ts';
import { createRevalidator } from './revalidation-retries.ts';

// Reuse with revalidation (docs/caching.md): a fresh entry is answered without rendering; a
// stale one is answered while one regeneration per entry runs on this replica (single-flight);
// a regeneration that fails keeps the stale entry and is retried after a back-off. Entries are
// keyed as cache-key.ts says; what the replica learns of each path is in learned-paths.ts, and
// an invalidation forgets that path's (or tag's) alone.

export interface Policy {
  revalidateMs: number;
  tags: readonly string[];
}

/** What an entry is looked up by, before any route is matched (./stored-pages.ts). */
export interface LookupKey {
  kind: 'document' | 'data';
  /** The page's path, what `revalidate({ path })` names. */
  path: string;
  /** Origin, path and query as sent (a navigation's data: `/about.data`, its routes named in the query). */
  target: string;
  bot: boolean;
}

/** A render that may be stored: its key, its route and the route's policy. */
export interface CacheSpec extends LookupKey {
  routeId: string;
  policy: Policy;
  /** The invalidation log's moment when the render began: an invalidation of its path or tags since means its page may be out of date. */
  generation: number;
  /** Its render's markers' id (page-template.ts). */
  marker: string;
}

/** After a failed regeneration, the next waits this long, doubling up to the ceiling (Next.js retries on the next request; a failing source deserves a pause). */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 300_000;
export const CACHE_HEADER = 'x-cache';
/** The one line a cacheable route's unstorable page gets, once per route and reason. */
export const NOT_STORED_MESSAGE = 'page not stored';

export interface PageCacheDeps {
  store: CacheStore;
  /** Where invalidations are told to the other replicas (REDIS_URL's channel); none: this replica alone. */
  channel?: InvalidationChannel;
  template: PageTemplate;
  logger: Logger;
  /** Development keeps nothing and learns nothing: a route's `cache` added by an edit is checked on the next load. */
  learns: boolean;
  now?: () => number;
}

export type PageCache = ReturnType<typeof createPageCache>;

export function createPageCache(deps: PageCacheDeps) {
  const { store, template, logger } = deps;
  const now = deps.now ?? Date.now;
  const told = new Set<string>();
  const regenerating = new Set<string>();
  const { baseKey, keyFor } = createCacheKeys(template.namespace);
  const learned = createLearnedPaths(now);
  const invalidations = createInvalidationLog();
  /** What this replica does for an invalidation, its own or another's: it forgets what it learned of those pages. */
  const forgetLocally = (target: RevalidateTarget) => {
    // A render of them that began before it is not stored (it may show what was just changed). Nothing else.
    invalidations.note(target);
    learned.forget(target);
  };
  deps.channel?.subscribe((target) => {
    // Entries in this process's memory are its own to drop; in a shared store the publisher deleted them.
    if (!store.shared) void store.invalidate(target);
    forgetLocally(target);
  });
  /** One try: the store's entries, this replica's knowledge, then every other replica told. */
  const revalidate = createRevalidator(async (target) => {
    const done = await store.invalidate(target);
    forgetLocally(target);
    const told = deps.channel === undefined || (await deps.channel.publish(target));
    return { dropped: done.dropped, confirmed: done.confirmed && told };
  }, logger);
  /** A memory store answers with the same entry object each time: it is cut at its markers once (a Redis entry is parsed anew anyway). */
  const pieces = new WeakMap<CacheEntry, TemplatePieces>();
  const piecesOf = (entry: CacheEntry) => {
    let known = pieces.get(entry);
    if (known === undefined) pieces.set(entry, (known = template.piecesOf(entry.body, entry.marker)));
    return known;
  };
  const varyNamesOf = (key: LookupKey) => learned.get(key.path)?.varyNames.get(baseKey(key)) ?? [];

  function tell(spec: CacheSpec, reason: string): void {
    const once = `${spec.routeId}\0${reason}`;
    if (told.has(once)) return;
    told.add(once);
    logger.warn({ route: spec.routeId, reason }, NOT_STORED_MESSAGE);
  }

  async function lookup(lookupKey: LookupKey, req: Request): Promise<CacheEntry | undefined> {
    const known = varyNamesOf(lookupKey);
    const key = keyFor(lookupKey, known, req);
    if (key === undefined) return undefined;
    const entry = await store.get(key);
    if (entry === undefined) return undefined;
    const names = Object.keys(entry.vary);
    if (names.join() !== known.join()) {
      // Stored by another replica, or its loaders read other headers since: look again by those.
      remember(learned.of(lookupKey.path, entry.tags).varyNames, baseKey(lookupKey), names);
      const again = keyFor(lookupKey, names, req);
      return again === undefined || again === key ? undefined : matching(await store.get(again), req);
    }
    return matching(entry, req);
  }

  function regenerate(entry: CacheEntry, key: string, work: () => Promise<boolean>): void {
    const { backOff } = learned.of(entry.path, entry.tags);
    const wait = backOff.get(key);
    if (regenerating.has(key) || (wait !== undefined && now() < wait.until)) return;
    regenerating.add(key);
    void work()
      .catch(() => false)
      .then((stored) => {
        // Learned anew: an invalidation meanwhile may have forgotten the path.
        const { backOff: current } = learned.of(entry.path, entry.tags);
        if (stored) return void current.delete(key);
        const delayMs = Math.min(RETRY_MAX_MS, (wait?.delayMs ?? RETRY_FIRST_MS / 2) * 2);
        remember(current, key, { until: now() + delayMs, delayMs });
      })
      .finally(() => regenerating.delete(key));
  }

  /** Drops this target's entry, by the variants this replica knows of it. */
  async function forget(lookupKey: LookupKey, req: Request): Promise<void> {
    const key = keyFor(lookupKey, varyNamesOf(lookupKey), req);
    if (key !== undefined) await store.delete(key);
  }

  /** Stores a finished render if the rule allows; `refresh`: it replaces a stored entry (a regeneration), which the cap always admits. */
  async function keep(spec: CacheSpec, req: Request, body: string, facts: RenderFacts, refresh = false): Promise<boolean> {
    const { path, policy } = spec;
    if (invalidations.overtook(spec.generation, path, policy.tags)) return false;
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
    const known = learned.of(path, policy.tags);
    const ask = { key, queried: spec.target.includes('?'), refresh };
    if (!admitVariant(known.variants, ask, now()))
      return (tell(spec, `its path has ${MAX_VARIANTS_PER_PATH} variants stored already`), false);
    const vary = Object.fromEntries(names.map((name) => [name, headerValue(req, name)]));
    const entry = { status: facts.status, headers: facts.headers, body, storedAt: now(), revalidateMs: policy.revalidateMs, vary };
    const route = `${spec.kind === 'data' ? 'data' : 'page'}:${spec.routeId}`;
    await store.set(key, { ...entry, path, tags: policy.tags, marker: spec.marker, route });
    remember(known.varyNames, baseKey(spec), names);
    return true;
  }

  return {
    /** What a spec made now carries: its invalidation moment, and its render's own markers. */
    specOf: (spec: Omit<CacheSpec, 'generation' | 'marker'>): CacheSpec => ({
      ...spec,
      generation: invalidations.now(),
      marker: template.newMarker(),
    }),

    /** Drops this target's entry: its regeneration answered what may not be stored (a 404, a redirect). */
    forget,

    /** Whether `path`'s route is known to have no policy: then no store holds it. */
    neverStored: (path: string): boolean => learned.isUnstored(path),

    /**
     * A route's `cache` export, checked; a malformed one is said once and the route never stored.
     * `learnedAt`: the path this route was matched for in the public route table, learned as never stored when it has none.
     */
    policyOf(routeId: string, cache: unknown, learnedAt?: string): Policy | undefined {
      const checked = checkCachePolicy(cache);
      if (checked === undefined || 'problem' in checked) {
        if (checked !== undefined && !told.has(routeId)) {
          told.add(routeId);
          logger.warn({ route: routeId, reason: checked.problem }, NOT_STORED_MESSAGE);
        }
        if (deps.learns && learnedAt !== undefined) learned.unstored(learnedAt);
        return undefined;
      }
      return checked;
    },

    /** The values this answer fills in, or undefined when one cannot be written as it is (then no cache). */
    valuesOf(values: PageValues): PageValues | undefined {
      return template.fits(values) ? values : undefined;
    },

    /** The values a spec's render is made with: its markers in place of the per-request values (page-template.ts). */
    markersOf(spec: CacheSpec): PageValues {
      return template.markers(spec.marker);
    },

    /**
     * Answers from the store when it holds this page: true when it did. A stale entry starts one
     * regeneration (`work` resolves true when it stored a new entry).
     */
    async serve(key: LookupKey, req: Request, res: Response, values: PageValues, work: () => Promise<boolean>): Promise<boolean> {
      const entry = await lookup(key, req);
      if (entry === undefined) return false;
      // Answered before any route is matched: the entry names the route its render had.
      res.locals.route = entry.route;
      const age = now() - entry.storedAt;
      const fresh = age < entry.revalidateMs;
      if (!fresh) regenerate(entry, keyFor(key, Object.keys(entry.vary), req)!, work);
      res.setHeader(CACHE_HEADER, fresh ? 'HIT' : 'STALE');
      res.setHeader('Age', String(Math.max(0, Math.floor(age / 1000))));
      if (answeredNotModified(req, res, entry.status, entry.headers)) return true;
      sendText(res, entry.status, entry.headers, template.fillPieces(piecesOf(entry), values));
      return true;
    },

    /** A fresh render's body for the client, filled as it streams; its template is stored when it ends, if the rule allows. */
    tee(spec: CacheSpec, req: Request, body: Readable, values: PageValues, facts: () => RenderFacts): Readable {
      return teeBody(body, template.filler(values, spec.marker), (text) => {
        if (text !== undefined) void keep(spec, req, text, facts()).catch(() => undefined);
      });
    },

    keep,

    /** Drops the entries of a path or tag here and, through the store, on every replica; retried while the store does not confirm it. */
    revalidate,
  };
}
