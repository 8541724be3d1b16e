import type { RouteObject } from 'react-router';

// Generated route tables and paths, pinned to a seed (a failure reproduces): the compiled
// matcher and the canonical spelling are each held to React Router's own matchRoutes over them.

// ':id.json' is a param with a static suffix, ranked below a static segment since React Router 8.2.
const SEGMENTS = ['a', 'b', 'guide', ':id', ':topic?', 'opt?', '*', '', 'A', 'a-b', ':x', 'c.d', ':id.json', 'x1.json', 'c.d?'];
const PATH_PARTS = ['a', 'b', 'guide', 'A', 'x1', 'a-b', 'c.d', '%2F', '%20z', '%E0%A4%A', '', 'GUIDE', 'long-segment', 'x1.json'];

export function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

export function table(next: () => number, depth: number, prefix: string): RouteObject[] {
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

export function paths(next: () => number): string[] {
  return Array.from({ length: 40 }, () => {
    const parts = Array.from({ length: Math.floor(next() * 4) }, () => PATH_PARTS[Math.floor(next() * PATH_PARTS.length)]!);
    return `/${parts.join('/')}${next() < 0.2 ? '/' : ''}`;
  });
}
