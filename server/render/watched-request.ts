// The request as the app's loaders, actions and middleware see it when the host notes which headers
// they read (./host-build.ts wraps them; server/pages/cache-capture.ts decides what a read means).

/** Header methods that read one header by name; any other method that reads reads them all. */
const READ_ONE = new Set<PropertyKey>(['get', 'has', 'getSetCookie']);
const READ_ALL = new Set<PropertyKey>(['entries', 'keys', 'values', 'forEach', Symbol.iterator]);

/**
 * The request as the app's handler sees it, its headers noting which it read: a page that read
 * the Cookie or Authorization header is one client's, and one stored per value of what it read
 * (server/pages/cache-capture.ts). Methods are bound to the real objects (a Request's own
 * methods refuse another receiver).
 */
export function watchedRequest(request: Request, reads: Set<string>): Request {
  const headers = new Proxy(request.headers, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (READ_ALL.has(key)) reads.add('*');
      const method = value as (...args: unknown[]) => unknown;
      if (!READ_ONE.has(key)) return method.bind(target);
      return (name: string) => (reads.add(key === 'getSetCookie' ? 'set-cookie' : String(name).toLowerCase()), method.call(target, name));
    },
  });
  return new Proxy(request, {
    get(target, key) {
      if (key === 'headers') return headers;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
