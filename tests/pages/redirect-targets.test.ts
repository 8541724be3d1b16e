// Class: a loader's redirect target that a browser could resolve to another origin, in any of
// its spellings (scheme-relative, protocol-relative, backslashes, percent-encoded, padded with
// whitespace). Each is refused as one failure with one digest, on the page and its data alike,
// whatever the target; every same-site spelling is followed.
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageDigest } from '../../tools/harness/digests.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

const SITE = 'shop.example.com';
const LEADERS = ['', ' ', '\t', '%20', '%09'];
const WAYS_OFF = [
  '//',
  '///',
  '/\\',
  '\\\\',
  '\\/',
  'http:',
  'https:',
  'HTTP:',
  'http:/',
  'https:/',
  'http://',
  'HTTPS://',
  '/%2F',
  '/%5C',
  '%2F%2F',
  '/%2f/',
  '%5C%5C',
];
const ELSEWHERE = ['evil.example', 'evil.example/x?y=1', 'evil.example:80', `${SITE}@evil.example`, `${SITE}.evil.example`];

const offSite = LEADERS.flatMap((lead) => WAYS_OFF.flatMap((way) => ELSEWHERE.map((where) => `${lead}${way}${where}`)));
const otherSchemes = ['javascript:alert(1)', 'data:text/html,x', 'mailto:a@evil.example', `https://${SITE}/`, `ftp://${SITE}/`];
const sameSite = [
  '/guide',
  '/guide/failures?x=1',
  'guide',
  './guide',
  '../guide',
  '?q=1',
  '/a%2Fb',
  '/search?q=%2F%2Fevil.example',
  '/search?next=http://evil.example',
  `http://${SITE}/x`,
  `HTTP://${SITE.toUpperCase()}/x`,
  ` /guide `,
];

/** Whether a browser could take this Location elsewhere: either scheme, once decoded or not. */
function staysOnSite(location: string): boolean {
  const decoded = location.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return [location, decoded].every((form) => ['http', 'https'].every((scheme) => new URL(form, `${scheme}://${SITE}/`).host === SITE));
}

const redirectTo = (host: TestApp, to: string, data = false) =>
  request(host.app)
    .get(`/_diag/redirect${data ? '.data' : ''}?to=${encodeURIComponent(to)}`)
    .set('Host', SITE)
    .set(DIAG);

describe('a redirect to another origin, in any spelling', () => {
  let host: TestApp;
  beforeAll(() => {
    host = createTestApp();
  });

  it('is refused, or becomes a path on this site: no Location any browser resolves elsewhere, one digest for all', async () => {
    const targets = [...offSite, ...otherSchemes];
    expect(targets.length).toBeGreaterThan(400);
    const digests = new Set<string>();
    for (const to of targets) {
      const res = await redirectTo(host, to);
      const location = res.headers.location;
      if (res.status === 302) {
        // React Router resolves a relative target against the page's URL first: that is a path here.
        expect({ to, location, onSite: staysOnSite(location!) }).toEqual({ to, location, onSite: true });
        continue;
      }
      expect({ to, status: res.status, location }).toEqual({ to, status: 500, location: undefined });
      const lines = host.logs.failures(res.headers['x-request-id']);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ route: 'page:diag/redirect', error: { type: 'CrossOriginRedirectError' } });
      expect(lines[0]!.error!.detail).toContain('target: ');
      digests.add(pageDigest(res.text)!);
      digests.add(lines[0]!.digest!);
    }
    expect(digests.size).toBe(1);
  });

  it.each([
    ...WAYS_OFF.filter((way) => !way.startsWith('%')).map((way) => `${way}evil.example`),
    ' //evil.example',
    '\t//evil.example',
    '/\t/evil.example',
    ...otherSchemes,
  ])('refuses %j', async (to) => {
    expect((await redirectTo(host, to)).status).toBe(500);
  });

  it("is refused in the page's navigation data too, carrying that same digest", async () => {
    const page = await redirectTo(host, '//evil.example');
    for (const to of ['http:evil.example', '/%5C%5Cevil.example', ' //evil.example/x']) {
      const res = await redirectTo(host, to, true).expect(500);
      expect(res.headers.location).toBeUndefined();
      // React Router's single fetch (turbo-stream) carries the boundary's data: the host's digest, the page's.
      expect(res.text).toContain(`"digest","${pageDigest(page.text)!}"`);
    }
  });

  it.each(sameSite)('follows the same-site target %j', async (to) => {
    const res = await redirectTo(host, to);
    expect(res.status).toBe(302);
    expect(host.logs.failures(res.headers['x-request-id'] as string)).toHaveLength(0);
  });
});
