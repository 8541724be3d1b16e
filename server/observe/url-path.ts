/**
 * The path of a request URL (a path or an absolute URL), without the query string: queries
 * may carry secrets (tokens, emails), so logs and reports keep the path only.
 */
export function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  if (!raw.startsWith('/')) {
    try {
      return new URL(raw).pathname;
    } catch {
      return '/';
    }
  }
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

/** The path as Express routes it: case-insensitive, one trailing slash allowed, no query (health checks, untraced paths). */
export function routedPath(url: string): string {
  const query = url.indexOf('?');
  const path = (query === -1 ? url : url.slice(0, query)).toLowerCase();
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A request's target as sent, split once at the edge (server/edge/request-target.ts, `res.locals.target`). */
export interface RequestTarget {
  /** The path, percent-encoding kept. */
  readonly path: string;
  /** `?…` as sent, or empty. */
  readonly query: string;
}

/** Splits an origin-form target (`/path?query`) into its path and query. */
export function splitTarget(url: string): RequestTarget {
  const at = url.indexOf('?');
  return at === -1 ? { path: url, query: '' } : { path: url.slice(0, at), query: url.slice(at) };
}

/**
 * The request's path for logs, metrics and reports: the edge's split (`res.locals.target`), or,
 * for a request refused before it (a malformed target), the path of what Node parsed.
 */
export function requestPath(req: { originalUrl?: string; url?: string }, locals: { target?: RequestTarget }): string {
  return locals.target?.path ?? pathOf(req.originalUrl ?? req.url);
}
