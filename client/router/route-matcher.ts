// The route table's matcher, compiled once. React Router's public matchRoutes() flattens, ranks
// and compiles the whole table on every call, so a request's cost grew with the size of the app
// (issue 22: 1,000 routes cut a page's req/s by more than half). This is the same algorithm as
// React Router 7.18.5's matchRoutes (flattenRoutes, explodeOptionalSegments, computeScore,
// rankRouteBranches, compilePath, matchRouteBranch in its dist/development/chunk-*.mjs), with
// the flattening, ranking and regular expressions done once per table. tests/route-matcher.test.ts
// holds it to matchRoutes over generated tables and paths.
import type { RouteMatch, RouteObject } from 'react-router';

interface Level {
  relativePath: string;
  route: RouteObject;
  childrenIndex: number;
  matcher: RegExp;
  params: { name: string; optional: boolean }[];
}
interface Branch {
  /** The whole path, its routes' paths joined. */
  path: string;
  score: number;
  levels: Level[];
}

const PARAM = /^:[\w-]+$/;
// React Router's weights: a static segment outranks a dynamic one, which outranks a splat.
const STATIC_SEGMENT = 10;
const DYNAMIC_SEGMENT = 3;
const INDEX_ROUTE = 2;
const EMPTY_SEGMENT = 1;
const SPLAT_PENALTY = -2;

const joinPaths = (paths: string[]) => paths.join('/').replace(/\/\/+/g, '/');
function removeTrailingSlash(path: string, minLength = 0): string {
  let end = path.length;
  while (end > minLength && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}
const normalizePathname = (pathname: string) => removeTrailingSlash(pathname).replace(/^\/*/, '/');

function computeScore(path: string, index: boolean | undefined): number {
  const segments = path.split('/');
  const initial = segments.length + (segments.includes('*') ? SPLAT_PENALTY : 0) + (index ? INDEX_ROUTE : 0);
  return segments
    .filter((s) => s !== '*')
    .reduce((score, s) => score + (PARAM.test(s) ? DYNAMIC_SEGMENT : s === '' ? EMPTY_SEGMENT : STATIC_SEGMENT), initial);
}

/** Siblings keep their order in the table; other branches of equal score are equal. */
function compareIndexes(a: number[], b: number[]): number {
  const siblings = a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i]);
  return siblings ? a.at(-1)! - b.at(-1)! : 0;
}

function compilePath(path: string, caseSensitive: boolean, end: boolean): Pick<Level, 'matcher' | 'params'> {
  const params: Level['params'] = [];
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
      .replace(/\/([\w-]+)\?(\/|$)/g, '(/$1)?$2');
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

type Meta = Omit<Level, 'matcher' | 'params'> & { caseSensitive: boolean };

function flatten(routes: RouteObject[], branches: Branch[] = [], parents: Meta[] = [], parentPath = '', parentOptional = false): Branch[] {
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
    if (route.children && route.children.length > 0) flatten(route.children, branches, metas, path, hasOptional);
    if (route.path == null && !route.index) return;
    const levels = metas.map((m, i) => ({ ...m, ...compilePath(m.relativePath, m.caseSensitive, i === metas.length - 1) }));
    branches.push({ path, score: computeScore(path, route.index), levels });
  };
  routes.forEach((route, index) => {
    if (route.path === '' || !route.path?.includes('?')) flattenRoute(route, index, parentOptional);
    else for (const exploded of explodeOptionalSegments(route.path)) flattenRoute(route, index, true, exploded);
  });
  return branches;
}

function decodePath(value: string): string {
  try {
    return value
      .split('/')
      .map((v) => decodeURIComponent(v).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return value;
  }
}

function matchBranch(branch: Branch, pathname: string): RouteMatch[] | null {
  // One object for every level, as React Router's: a child's params include its parents'.
  const params: Record<string, string | undefined> = {};
  let matched = '/';
  const matches: RouteMatch[] = [];
  for (const level of branch.levels) {
    const remaining = matched === '/' ? pathname : pathname.slice(matched.length) || '/';
    const found = remaining.match(level.matcher);
    if (!found) return null;
    const whole = found[0];
    let base = removeTrailingSlash(whole, 1);
    level.params.forEach(({ name, optional }, i) => {
      const value = found[i + 1];
      if (name === '*') base = removeTrailingSlash(whole.slice(0, whole.length - (value ?? '').length), 1);
      params[name] = optional && !value ? undefined : (value ?? '').replace(/%2F/g, '/');
    });
    matches.push({
      params,
      pathname: joinPaths([matched, whole]),
      pathnameBase: normalizePathname(joinPaths([matched, base])),
      route: level.route,
    });
    if (base !== '/') matched = joinPaths([matched, base]);
  }
  return matches;
}

/** The number of capturing groups a regular expression source has. */
const groupsIn = (source: string) => new RegExp(`${source}|`).exec('')!.length - 1;

/**
 * One regular expression for the whole table: each branch's whole path, in rank order, as an
 * alternative ending in an empty marker group. The engine tries the alternatives in order, so the
 * first marker set names the first branch that can match, found in native code; the level-by-level
 * match then decides (and from there on, branch by branch, if it does not: the combined pattern
 * ignores case, and a route may not).
 */
function combine(branches: readonly Branch[]): { pattern: RegExp; markers: number[] } {
  const markers: number[] = [];
  let group = 0;
  const alternatives = branches.map((branch) => {
    // A splat above the last level has no whole-path pattern: the branch may match anything.
    const splatAbove = branch.levels.slice(0, -1).some((level) => level.relativePath.includes('*'));
    const { source } = splatAbove ? { source: '' } : compilePath(branch.path, false, true).matcher;
    group += groupsIn(source) + 1;
    markers.push(group);
    return `(?:${source})()`;
  });
  // No branch at all: a pattern that never matches (an empty one would match everything).
  return { pattern: new RegExp(alternatives.length > 0 ? alternatives.join('|') : '(?!)', 'i'), markers };
}

/** matchRoutes(routes, pathname), for one table, compiled once. */
export function createRouteMatcher<R extends RouteObject>(routes: R[]): (pathname: string) => RouteMatch<string, R>[] | null {
  const branches = flatten(routes).sort((a, b) =>
    a.score !== b.score
      ? b.score - a.score
      : compareIndexes(
          a.levels.map((l) => l.childrenIndex),
          b.levels.map((l) => l.childrenIndex),
        ),
  );
  const { pattern, markers } = combine(branches);
  return (pathname) => {
    const decoded = decodePath(pathname || '/');
    const found = pattern.exec(decoded);
    if (found === null) return null;
    for (let i = markers.findIndex((marker) => found[marker] !== undefined); i < branches.length; i++) {
      const matches = matchBranch(branches[i]!, decoded);
      if (matches !== null) return matches as RouteMatch<string, R>[];
    }
    return null;
  };
}
