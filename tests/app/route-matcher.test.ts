import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from '../../client/router/server/route-matcher.ts';
import { routes } from '../../client/routes.tsx';
import { toRouterRoutes } from '../../client/router/both/react-router-routes.ts';
import { paths, random, table } from '../support/route-tables.ts';

// The compiled matcher must rank and match exactly as React Router's matchRoutes: static over
// dynamic over splat, index routes, optional segments, params, trailing slashes, case, encoding.
// Pinned against it over generated tables and paths (a seeded generator: failures reproduce).

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
