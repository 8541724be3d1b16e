// The route table's matcher, compiled once. React Router's public matchRoutes() flattens, ranks
// and compiles the whole table on every call, so a request's cost grew with the size of the app
// (issue 22: 1,000 routes cut a page's req/s by more than half). This is the same algorithm as
// React Router 8.5's matchRoutes (flattenRoutes, explodeOptionalSegments, computeScore,
// rankRouteBranches, compilePath, matchRouteBranch in its dist/*/lib/router/utils.js), with
// the flattening, ranking and regular expressions done once per table. tests/app/route-matcher.test.ts
// holds it to matchRoutes over generated tables and paths.
import type { RouteMatch, RouteObject } from 'react-router';
import { indexByPrefix } from './route-prefix-index.ts';

interface Compiled {
  matcher: RegExp;
  params: { name: string; optional: boolean }[];
}
/** A level's pattern, compiled the first time a path is tried against it (./route-matcher.ts, flatten). */
interface Pattern {
  path: string;
  caseSensitive: boolean;
  end: boolean;
  compiled?: Compiled;
}
interface Level {
  relativePath: string;
  route: RouteObject;
  childrenIndex: number;
  pattern: Pattern;
}
interface Branch {
  /** The whole path, its routes' paths joined. */
  path: string;
  score: number;
  levels: Level[];
  /** Each level's place among its siblings, for ranking. */
  indexes: number[];
}

const PARAM = /^:[\w-]+$/;
/** A param with a static suffix (`:id.json`): dynamic since React Router 8.2, a little above a bare param. */
const PARTIAL_PARAM = /^:[\w-]+/;
// React Router's weights: a static segment outranks a dynamic one, which outranks a splat.
const STATIC_SEGMENT = 10;
const PARTIAL_DYNAMIC_SEGMENT = 3.5;
const DYNAMIC_SEGMENT = 3;
const INDEX_ROUTE = 2;
const EMPTY_SEGMENT = 1;
const SPLAT_PENALTY = -2;

const joinPaths = (paths: string[]) => {
  const joined = paths.join('/');
  return joined.includes('//') ? joined.replace(/\/\/+/g, '/') : joined;
};
function removeTrailingSlash(path: string, minLength = 0): string {
  let end = path.length;
  while (end > minLength && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}
const normalizePathname = (pathname: string) => removeTrailingSlash(pathname).replace(/^\/*/, '/');

function segmentScore(segment: string): number {
  if (PARAM.test(segment)) return DYNAMIC_SEGMENT;
  if (PARTIAL_PARAM.test(segment)) return PARTIAL_DYNAMIC_SEGMENT;
  return segment === '' ? EMPTY_SEGMENT : STATIC_SEGMENT;
}

function computeScore(path: string, index: boolean | undefined): number {
  const segments = path.split('/');
  const initial = segments.length + (segments.includes('*') ? SPLAT_PENALTY : 0) + (index ? INDEX_ROUTE : 0);
  return segments.filter((s) => s !== '*').reduce((score, s) => score + segmentScore(s), initial);
}

/**
 * Siblings keep their order in the table; other branches of equal score are equal. Allocates
 * nothing: a table's sort makes tens of thousands of comparisons.
 */
function compareIndexes(a: number[], b: number[]): number {
  if (a.length !== b.length) return 0;
  for (let i = 0; i < a.length - 1; i++) if (a[i] !== b[i]) return 0;
  return a[a.length - 1]! - b[b.length - 1]!;
}

function compilePath(path: string, caseSensitive: boolean, end: boolean): Compiled {
  const params: Compiled['params'] = [];
  let source =
    '^' +
    path
      .replace(/\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)(\?)?/g, (match, name: string, optional: string | undefined, at: number, text: string) => {
        params.push({ name, optional: optional !== undefined });
        if (optional === undefined) return '/([^\\/]+)';
        const next = text.charAt(at + match.length);
        return next && next !== '/' ? '/([^\\/]*)' : '(?:/([^\\/]*))?';
      })
      .replace(/\/([\w-]+)\?(\/|$)/g, '(?:/$1)?$2');
  if (path.endsWith('*')) {
    params.push({ name: '*', optional: false });
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else if (end) source += '\\/*$';
  else if (path !== '' && path !== '/') source += '(?:(?=\\/|$))';
  return { matcher: new RegExp(source, caseSensitive ? undefined : 'i'), params };
}

function explodeOptionalSegments(path: string): string[] {
  const [first, ...rest] = path.split('/') as [string, ...string[]];
  const optional = first.endsWith('?');
  const required = first.replace(/\?$/, '');
  if (rest.length === 0) return optional ? [required, ''] : [required];
  const restExploded = explodeOptionalSegments(rest.join('/'));
  const result = restExploded.map((sub) => (sub === '' ? required : [required, sub].join('/')));
  if (optional) result.push(...restExploded);
  return result.map((exploded) => (path.startsWith('/') && exploded === '' ? '/' : exploded));
}

type Meta = Omit<Level, 'pattern'> & { caseSensitive: boolean };

const compiledOf = (pattern: Pattern): Compiled => (pattern.compiled ??= compilePath(pattern.path, pattern.caseSensitive, pattern.end));

/**
 * A layout's level is the same pattern in every branch under it: one per table, shared (a
 * thousand pages under one layout would otherwise hold a thousand copies of it). Patterns are
 * compiled when first tried: compiling them all at start-up made about 4 KB of garbage a route,
 * whose heap the process then kept (issue 22's RSS row).
 */
function flatten(
  routes: RouteObject[],
  branches: Branch[] = [],
  parents: Meta[] = [],
  parentPath = '',
  parentOptional = false,
  patterns = new Map<string, Pattern>(),
): Branch[] {
  const patternOf = (path: string, caseSensitive: boolean, end: boolean): Pattern => {
    const key = `${caseSensitive ? 'c' : 'i'}${end ? 'e' : 'p'}${path}`;
    let found = patterns.get(key);
    if (found === undefined) patterns.set(key, (found = { path, caseSensitive, end }));
    return found;
  };
  const flattenRoute = (route: RouteObject, index: number, hasOptional: boolean, relative?: string) => {
    const meta: Meta = {
      relativePath: relative ?? route.path ?? '',
      caseSensitive: route.caseSensitive === true,
      childrenIndex: index,
      route,
    };
    if (meta.relativePath.startsWith('/')) {
      // React Router refuses an absolute child path outside its parent's (an invariant) unless optional segments made it.
      if (!meta.relativePath.startsWith(parentPath)) {
        if (hasOptional) return;
        throw new Error(`Absolute route path "${meta.relativePath}" nested under path "${parentPath}" is not valid`);
      }
      meta.relativePath = meta.relativePath.slice(parentPath.length);
    }
    const path = joinPaths([parentPath, meta.relativePath]);
    const metas = [...parents, meta];
    if (route.children && route.children.length > 0) flatten(route.children, branches, metas, path, hasOptional, patterns);
    if (route.path == null && !route.index) return;
    const levels = metas.map(({ caseSensitive, ...m }, i) => ({
      ...m,
      pattern: patternOf(m.relativePath, caseSensitive, i === metas.length - 1),
    }));
    branches.push({ path, score: computeScore(path, route.index), levels, indexes: metas.map((m) => m.childrenIndex) });
  };
  routes.forEach((route, index) => {
    if (route.path === '' || !route.path?.includes('?')) flattenRoute(route, index, parentOptional);
    else for (const exploded of explodeOptionalSegments(route.path)) flattenRoute(route, index, true, exploded);
  });
  return branches;
}

function decodePath(value: string): string {
  // Most paths have nothing encoded: nothing to split and join again.
  if (!value.includes('%')) return value;
  try {
    return value
      .split('/')
      .map((v) => decodeURIComponent(v).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return value;
  }
}

/** What a level's pattern matched, and where the path stood before it. */
interface LevelMatch {
  found: RegExpMatchArray;
  before: string;
  base: string;
}

function matchBranch(branch: Branch, pathname: string): RouteMatch[] | null {
  // Every level's pattern first: most candidates fail, and then nothing is built for them.
  const found: LevelMatch[] = [];
  let matched = '/';
  for (const level of branch.levels) {
    const remaining = matched === '/' ? pathname : pathname.slice(matched.length) || '/';
    const { matcher, params: names } = compiledOf(level.pattern);
    const match = remaining.match(matcher);
    if (!match) return null;
    const whole = match[0];
    const splat = names.findIndex(({ name }) => name === '*');
    const base =
      splat === -1 ? removeTrailingSlash(whole, 1) : removeTrailingSlash(whole.slice(0, whole.length - (match[splat + 1] ?? '').length), 1);
    found.push({ found: match, before: matched, base });
    if (base !== '/') matched = joinPaths([matched, base]);
  }
  // One params object for every level, as React Router's: a child's params include its parents'.
  const params: Record<string, string | undefined> = {};
  return branch.levels.map((level, i) => {
    const { found: match, before, base } = found[i]!;
    compiledOf(level.pattern).params.forEach(({ name, optional }, n) => {
      const value = match[n + 1];
      params[name] = optional && !value ? undefined : (value ?? '').replace(/%2F/g, '/');
    });
    return {
      params,
      pathname: joinPaths([before, match[0]]),
      pathnameBase: normalizePathname(joinPaths([before, base])),
      route: level.route,
    };
  });
}

/** matchRoutes(routes, pathname), for one table, compiled once. */
export function createRouteMatcher<R extends RouteObject>(routes: R[]): (pathname: string) => RouteMatch<string, R>[] | null {
  const branches = flatten(routes).sort((a, b) => (a.score !== b.score ? b.score - a.score : compareIndexes(a.indexes, b.indexes)));
  const candidatesFor = indexByPrefix(branches);
  return (pathname) => {
    const decoded = decodePath(pathname || '/');
    for (const rank of candidatesFor(decoded)) {
      const matches = matchBranch(branches[rank]!, decoded);
      if (matches !== null) return matches as RouteMatch<string, R>[];
    }
    return null;
  };
}
