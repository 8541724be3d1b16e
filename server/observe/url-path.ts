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
