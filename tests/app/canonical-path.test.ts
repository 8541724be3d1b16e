import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { canonicalPath } from '../../shared/canonical-path.ts';
import { paths, random, table } from '../support/route-tables.ts';

// A page's one spelling (shared/canonical-path.ts), held to React Router's own matchRoutes: the
// canonical spelling of a path is the same page to the router (the same routes, the same
// params), and it is its own canonical spelling (a redirect to it never loops).

const pageOf = (matches: ReturnType<typeof matchRoutes>) => matches?.map((m) => ({ id: m.route.id, params: { ...m.params } })) ?? null;
const canonical = (routes: RouteObject[], path: string) => canonicalPath(path, (sent) => matchRoutes(routes, sent)) ?? null;

const CONTACTS: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    children: [
      { id: 'home', index: true },
      { id: 'about', path: 'about' },
      { id: 'contact', path: 'contacts/:contactId' },
      { id: 'edit', path: 'contacts/:contactId/edit' },
      { id: 'guide', path: 'guide/:topic?' },
      { id: 'docs', path: 'docs/*' },
      { id: 'lang', path: ':lang?/pricing' },
      { id: 'optional-static', path: 'shop?/cart' },
    ],
  },
];

describe("a page's canonical spelling", () => {
  it.each([
    ['/about', '/about'],
    ['/about/', '/about'],
    ['/about//', '/about'],
    ['/About', '/about'],
    ['/ABOUT/', '/about'],
    ['/%61bout', '/about'],
    ['/', '/'],
    ['/guide', '/guide'],
    ['/Guide/Streaming/', '/guide/Streaming'],
    ['/pricing', '/pricing'],
    ['/en/Pricing', '/en/pricing'],
    ['/cart', '/cart'],
    ['/SHOP/cart', '/shop/cart'],
  ])('%s is spelled %s', (path, expected) => {
    expect(canonical(CONTACTS, path)).toBe(expected);
  });

  it('keeps a dynamic value byte for byte: two cases are two pages', () => {
    expect(canonical(CONTACTS, '/contacts/ABC')).toBe('/contacts/ABC');
    expect(canonical(CONTACTS, '/contacts/abc')).toBe('/contacts/abc');
    expect(canonical(CONTACTS, '/Contacts/ABC/EDIT/')).toBe('/contacts/ABC/edit');
  });

  it('encodes a dynamic value one way, whichever way it was sent', () => {
    for (const sent of ['/contacts/%41BC', '/contacts/A%42C', '/contacts/ABC']) expect(canonical(CONTACTS, sent)).toBe('/contacts/ABC');
    expect(canonical(CONTACTS, '/contacts/a%20b')).toBe('/contacts/a%20b');
    expect(canonical(CONTACTS, '/contacts/%c3%a9')).toBe('/contacts/%C3%A9');
    expect(canonical(CONTACTS, '/contacts/a:b@c')).toBe('/contacts/a:b@c');
    expect(canonical(CONTACTS, '/contacts/a%3Ab')).toBe('/contacts/a:b');
    // An encoded slash stays inside its segment.
    expect(canonical(CONTACTS, '/contacts/a%2Fb')).toBe('/contacts/a%2Fb');
  });

  it("keeps a splat's own slashes, as the router's param does", () => {
    expect(canonical(CONTACTS, '/Docs/a/B')).toBe('/docs/a/B');
    expect(canonical(CONTACTS, '/docs/a//b/')).toBe('/docs/a//b/');
    expect(canonical(CONTACTS, '/docs')).toBe('/docs');
  });

  it('is the same page to React Router, and its own spelling, over 100 generated tables', () => {
    let compared = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const next = random(seed);
      const routes = table(next, 2, 'r');
      try {
        matchRoutes(routes, '/');
      } catch {
        continue; // a table React Router refuses
      }
      // The host reads leading slashes as one before matching (`//x` is never another host).
      for (const path of paths(next).map((sent) => sent.replace(/^\/+/, '/'))) {
        const spelled = canonical(routes, path);
        if (spelled === null) continue;
        const where = `seed ${seed}, path ${path} → ${spelled}`;
        expect(pageOf(matchRoutes(routes, spelled)), where).toEqual(pageOf(matchRoutes(routes, path)));
        expect(canonical(routes, spelled), where).toBe(spelled);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1_500);
  });
});
