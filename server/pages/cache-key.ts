import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { CacheEntry } from './cache-store.ts';

// What a stored page is kept under (docs/caching.md, "Reuse with revalidation"): the release's
// namespace (page-template.ts), the kind (document or navigation data), crawler or browser (a
// crawler's page is complete, a browser's streams), the target (the page's one spelling,
// ../render/react-router-handler.ts, and its query), and the values of the request headers its loaders read.

/** What a key is made of. */
export interface KeyedRequest {
  kind: 'document' | 'data';
  bot: boolean;
  /** Origin, path and query, and for data the routes named. */
  target: string;
}

/** A header value longer than this is not a variant worth keeping: such a request renders without the cache. */
const MAX_VARY_VALUE = 256;
/**
 * A target as it stands in keys: a long one (an invented query string) by its hash, so that what
 * a replica and Redis hold per variant is bounded whatever a client sends; a short one as it is,
 * readable by an operator in Redis.
 */
const MAX_KEYED_TARGET = 256;
const keyedTarget = (target: string) =>
  target.length <= MAX_KEYED_TARGET ? target : `#${createHash('sha256').update(target).digest('base64url')}`;

export function headerValue(req: Request, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** An entry answers a request only when the headers it read have the values they had then. */
export function matching(entry: CacheEntry | undefined, req: Request): CacheEntry | undefined {
  if (entry === undefined) return undefined;
  return Object.entries(entry.vary).every(([name, value]) => headerValue(req, name) === value) ? entry : undefined;
}

/** Keys in `namespace` (the release's: a replica of another build never reads these entries). */
export function createCacheKeys(namespace: string) {
  const baseKey = (spec: KeyedRequest) => `${namespace}|${spec.kind}|${spec.bot ? 'bot' : 'browser'}|${keyedTarget(spec.target)}`;
  return {
    /** The key of the target's entries before the header values its loaders read. */
    baseKey,
    /** The entry's key for these header values; undefined when a value is too long to be a variant. */
    keyFor(spec: KeyedRequest, names: readonly string[], req: Request): string | undefined {
      if (names.length === 0) return baseKey(spec);
      const values = names.map((name) => headerValue(req, name));
      if (values.some((value) => value.length > MAX_VARY_VALUE)) return undefined;
      const vary = createHash('sha256')
        .update(JSON.stringify([names, values]))
        .digest('base64url')
        .slice(0, 22);
      return `${baseKey(spec)}|${vary}`;
    },
  };
}
