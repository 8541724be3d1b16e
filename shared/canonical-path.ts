// A page's one spelling (docs/caching.md, "One page, one spelling"). React Router matches
// `/about`, `/about/`, `/about//` and `/About` to one route (case-insensitive, trailing and
// repeated slashes ignored, the path percent-decoded first), so without this each spelling would
// be a page of its own to the cache: its own entries, its own variant cap, left standing when
// `/about` is revalidated. The canonical spelling is the matched routes' patterns with their
// params put back: static segments as the route spells them, each dynamic value as React Router
// decoded it, encoded again one way. Values are never case-folded (`/contacts/ABC` and
// `/contacts/abc` are two pages), and a splat keeps its slashes, as the router's own param does.

/** A matched route as React Router's `matchRoutes` gives it (`RouteMatch`), reduced to what this reads. */
export interface PathMatch {
  route: { id?: string; path?: string; index?: boolean };
  params: Readonly<Record<string, string | undefined>>;
}

/**
 * The characters `encodeURIComponent` escapes that a path segment may hold as they are (RFC 3986
 * §3.3, `pchar`): the same set React Router's `generatePath` keeps (its `encodePathParam`, in
 * node_modules/react-router/dist/production/lib/router/utils.js).
 */
const PCHAR_ESCAPES = /%(?:24|26|2B|2C|3A|3B|3D|40)/g;
const encodeSegment = (value: string) => encodeURIComponent(value).replace(PCHAR_ESCAPES, (escape) => decodeURIComponent(escape));

/** A segment as the router decoded it back into a path: `%2F` there is an encoded `/`, and stays one. */
const encodeDecoded = (segment: string) => segment.split('%2F').map(encodeSegment).join('%2F');

/** The matched routes' patterns joined as React Router joins them: an absolute child path stands on its own. */
function patternOf(matches: readonly PathMatch[]): string[] {
  let pattern = '';
  for (const { route } of matches) {
    if (route.path === undefined || route.path === '') continue;
    pattern = route.path.startsWith('/') ? route.path : `${pattern}/${route.path}`;
  }
  return pattern.split('/').filter((segment) => segment !== '');
}

const DYNAMIC = /^:([\w-]+)(\??)(.*)$/;

/** The path's next segment and what follows the one slash after it (between segments the router matches exactly one). */
function nextSegment(path: string): [string, string] {
  const end = path.indexOf('/');
  return end === -1 ? [path, ''] : [path.slice(0, end), path.slice(end + 1)];
}

/**
 * The ways the pattern's segments line up with the path (as the router decoded it, no leading
 * slash), each as the segments of a spelling, the router's preferred reading first (an optional
 * segment present before absent). Only optional segments give more than one.
 */
function* readings(pattern: readonly string[], path: string): Generator<string[]> {
  const [segment, ...rest] = pattern;
  if (segment === undefined) {
    // Past the pattern, only the trailing slashes the router ignores.
    if (/^\/*$/.test(path)) yield [];
    return;
  }
  // A splat is the rest of the path with its own slashes, trailing ones included: the router's `*` param holds them.
  if (segment === '*') return void (yield path === '' ? [] : [path.split('/').map(encodeDecoded).join('/')]);
  const [head, tail] = nextSegment(path);
  const dynamic = DYNAMIC.exec(segment);
  const optional = segment.endsWith('?') || dynamic?.[2] === '?';
  if (dynamic !== null) {
    const suffix = dynamic[3]!;
    // The value as the router read it from the path: an encoded `/` in it stays inside its segment.
    if (head.length > suffix.length && head.toLowerCase().endsWith(suffix.toLowerCase())) {
      const value = encodeDecoded(head.slice(0, head.length - suffix.length));
      for (const after of readings(rest, tail)) yield [value + suffix, ...after];
    }
  } else {
    const name = segment.replace(/\?$/, '');
    if (head.toLowerCase() === name.toLowerCase()) for (const after of readings(rest, tail)) yield [name, ...after];
  }
  if (optional) yield* readings(rest, path);
}

/** Readings tried before giving up: a route has a few optional segments at most. */
const MAX_READINGS = 16;

/** The path as React Router decodes it before matching (its `decodePath`): an encoded `/` stays `%2F`. */
function decodePath(path: string): string {
  try {
    return path
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return path; // as the router does; the host has refused such a path at its edge (server/edge/request-target.ts)
  }
}

/** The routes and params a matching found: two paths with the same are one page to the router. */
const pageOf = (matches: readonly PathMatch[] | null) =>
  matches === null ? '' : JSON.stringify(matches.map((m) => [m.route.id, m.route.path, m.route.index === true, m.params]));

/**
 * The spelling of the page React Router's matching (`match`) finds for `path`, the path as sent
 * (server/render/route-table.ts hands it the request's); undefined when no
 * route matches it. It starts with one `/` and ends without one (but `/` itself, or a splat's
 * own). A spelling is taken only when the router finds the very same page for it (routes and
 * params): optional segments can be read more than one way, and a reading the router would take
 * for another page is never one.
 */
export function canonicalPath(path: string, match: (path: string) => readonly PathMatch[] | null): string | undefined {
  const matches = match(path);
  if (matches === null) return undefined;
  const page = pageOf(matches);
  const decoded = decodePath(path).replace(/^\/+/, '');
  let tried = 0;
  for (const segments of readings(patternOf(matches), decoded)) {
    const spelled = `/${segments.join('/')}`;
    if (spelled === path || pageOf(match(spelled)) === page) return spelled;
    if (++tried === MAX_READINGS) break;
  }
  // Never the case for a match React Router made; the path as sent is then its own spelling.
  return path;
}
