import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from '../../client/router/server/route-matcher.ts';
import { routes } from '../../client/routes.tsx';
import { toRouterRoutes } from '../../client/router/both/react-router-routes.ts';

// The compiled matcher must rank and match exactly as React Router's matchRoutes: static over
// dynamic over splat, index routes, optional segments, params, trailing slashes, case, encoding.
// Pinned against it over generated tables and paths (a seeded generator: failures reproduce).

function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

// ':id.json' is a param with a static suffix, ranked below a static segment since React Router 8.2.
const SEGMENTS = ['a', 'b', 'guide', ':id', ':topic?', 'opt?', '*', '', 'A', 'a-b', ':x', 'c.d', ':id.json', 'x1.json', 'c.d?'];
const PATH_PARTS = ['a', 'b', 'guide', 'A', 'x1', 'a-b', 'c.d', '%2F', '%20z', '%E0%A4%A', '', 'GUIDE', 'long-segment', 'x1.json'];

function table(next: () => number, depth: number, prefix: string): RouteObject[] {
  const count = 1 + Math.floor(next() * 4);
  return Array.from({ length: count }, (_, i): RouteObject => {
    const id = `${prefix}${i}`;
    const kind = next();
    if (kind < 0.15) return { id, index: true };
    const segments = Array.from({ length: 1 + Math.floor(next() * 2) }, () => SEGMENTS[Math.floor(next() * SEGMENTS.length)]!);
    // A splat only ends a path, as React Router requires.
    const path = kind < 0.25 ? undefined : segments.filter((s, at) => s !== '*' || at === segments.length - 1).join('/');
    const children = depth > 0 && next() < 0.5 ? table(next, depth - 1, `${id}.`) : undefined;
    return children ? { id, path, children } : { id, path };
  });
}

function paths(next: () => number): string[] {
  return Array.from({ length: 40 }, () => {
    const parts = Array.from({ length: Math.floor(next() * 4) }, () => PATH_PARTS[Math.floor(next() * PATH_PARTS.length)]!);
    return `/${parts.join('/')}${next() < 0.2 ? '/' : ''}`;
  });
}

const shape = (matches: ReturnType<typeof matchRoutes>) =>
  matches?.map((m) => ({ id: m.route.id, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase })) ?? null;

describe('the compiled route matcher', () => {
  it('matches as React Router’s matchRoutes on 300 generated tables, 40 paths each', () => {
    let compared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const routesOf = table(next, 2, 'r');
      let compiled: ReturnType<typeof createRouteMatcher>;
      try {
        compiled = createRouteMatcher(routesOf);
      } catch {
        expect(() => matchRoutes(routesOf, '/')).toThrow(); // a table React Router refuses too
        continue;
      }
      for (const path of paths(next)) {
        expect(shape(compiled(path)), `seed ${seed}, path ${path}`).toEqual(shape(matchRoutes(routesOf, path)));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('matches as matchRoutes on the app’s own table, diagnostics and resource routes included', () => {
    const appRoutes = toRouterRoutes(routes, { loader: () => () => null, action: () => () => null });
    const compiled = createRouteMatcher(appRoutes);
    const samples = [
      '/',
      '/guide',
      '/guide/streaming',
      '/guide/a/b',
      '/guestbook',
      '/api/guestbook',
      '/_diag/slow',
      '/_diag',
      '/about/',
      '/nope',
    ];
    for (const path of samples) expect(shape(compiled(path)), path).toEqual(shape(matchRoutes(appRoutes, path)));
  });
});
