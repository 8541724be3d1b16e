// Class: the session cookie of a site served over https, as a browser sees it. It must be
// Secure whenever the browser is on https (the connection, a trusted X-Forwarded-Proto, or an
// https PUBLIC_ORIGIN), and named `__Host-session` there, so a sibling subdomain cannot plant a
// session of its choosing (a plain-named cookie with `Domain=` the parent domain is sent first);
// on https that plain name is not read at all. A client's own X-Forwarded-Proto changes nothing.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pair, sessionApp, setCookies, visits } from '../support/session-app.ts';

/** Any peer of these tests is on loopback: `loopback` trusts it, a documentation address does not. */
const TRUSTED = { TRUST_PROXY: 'loopback' };
const HTTPS = { 'x-forwarded-proto': 'https' };
const SECURE_COOKIE = /^__Host-session=[^;]+; Max-Age=1209600; Path=\/; HttpOnly; Secure; SameSite=Lax$/;
const PLAIN_COOKIE = /^__session=[^;]+; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/;

const host = sessionApp;

/** A session that has seen the page `times` times over plain http: what a sibling could have obtained and planted. */
async function plainSession(app: ReturnType<typeof host>, times: number): Promise<string> {
  let cookie = '';
  for (let i = 0; i < times; i += 1) cookie = pair(await request(app).get('/writes').set('Cookie', cookie).expect(200));
  return cookie;
}

describe('the session cookie', () => {
  it('over plain http is __session, not Secure, and is read back', async () => {
    const app = host();
    const first = await request(app).get('/writes').expect(200);
    expect(setCookies(first)).toEqual([expect.stringMatching(PLAIN_COOKIE)]);
    const second = await request(app).get('/writes').set('Cookie', pair(first)).expect(200);
    expect(visits(second)).toBe(2);
  });

  it('behind a trusted proxy that says https is Secure and __Host-session, and only that name is read', async () => {
    const app = host(TRUSTED);
    const first = await request(app).get('/writes').set(HTTPS).expect(200);
    expect(setCookies(first)).toEqual([expect.stringMatching(SECURE_COOKIE)]);
    const own = pair(first);
    expect(visits(await request(app).get('/writes').set(HTTPS).set('Cookie', own).expect(200))).toBe(2);

    // A signed session of the attacker's own, planted under the plain name by a sibling
    // subdomain (Domain=the parent), is sent before the site's own cookie: it is not read.
    const planted = await plainSession(app, 5);
    const beside = await request(app).get('/writes').set(HTTPS).set('Cookie', `${planted}; ${own}`).expect(200);
    expect(visits(beside)).toBe(3); // its own session's third visit (held on the server), not the planted five
    const alone = await request(app).get('/writes').set(HTTPS).set('Cookie', planted).expect(200);
    expect(visits(alone)).toBe(1);
    expect(setCookies(alone)).toEqual([expect.stringMatching(SECURE_COOKIE)]);
  });

  it('an X-Forwarded-Proto from a peer TRUST_PROXY does not trust (or with none set) changes nothing', async () => {
    for (const env of [{}, { TRUST_PROXY: '192.0.2.1' }] as Record<string, string>[]) {
      const app = host(env);
      const first = await request(app).get('/writes').set(HTTPS).expect(200);
      expect(setCookies(first)).toEqual([expect.stringMatching(PLAIN_COOKIE)]);
      const second = await request(app).get('/writes').set(HTTPS).set('Cookie', pair(first)).expect(200);
      expect(visits(second)).toBe(2);
    }
  });

  it('with an https PUBLIC_ORIGIN is Secure and __Host-session whatever the proxy says, and only that name is read', async () => {
    const app = host({ PUBLIC_ORIGIN: 'https://shop.example.com' });
    const first = await request(app).get('/writes').expect(200);
    expect(setCookies(first)).toEqual([expect.stringMatching(SECURE_COOKIE)]);
    expect(visits(await request(app).get('/writes').set('Cookie', pair(first)).expect(200))).toBe(2);
    // The same site over plain http (PUBLIC_ORIGIN unset), signing with the same secret, hands out the plain name.
    const planted = await plainSession(host(), 4);
    expect(visits(await request(app).get('/writes').set('Cookie', planted).expect(200))).toBe(1);
  });
});
