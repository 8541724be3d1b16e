// Sign-out: `context.session.destroy()` clears the session and the answer expires its cookie, over
// plain http and under the __Host- name on https; values set after it start a new session. That the
// keys an app declares type get() is checked in the host fixture's own program
// (tests/apps/host/app/session-types.ts), not here: the host's program holds whatever app is in
// client/, with its keys or none.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pair, sessionApp, setCookies, visits } from '../support/session-app.ts';

const FORM = 'application/x-www-form-urlencoded';
/** What React Router's destroySession writes: an empty value that expired at the epoch. */
const EXPIRED = 'Expires=Thu, 01 Jan 1970 00:00:00 GMT';

const host = sessionApp;

async function signedIn(app: ReturnType<typeof host>, headers: Record<string, string> = {}): Promise<string> {
  const first = pair(await request(app).get('/writes').set(headers).expect(200));
  return pair(await request(app).get('/writes').set(headers).set('Cookie', first).expect(200));
}

describe('signing out (session.destroy())', () => {
  it('answers with the session cookie expired, and the next page starts a new session', async () => {
    const app = host();
    const cookie = await signedIn(app);
    const out = await request(app).post('/writes?do=sign-out').set('Cookie', cookie).type(FORM).send('').expect(303);
    expect(out.headers.location).toBe('/writes');
    expect(out.headers['cache-control']).toBe('no-store');
    const [expired] = setCookies(out);
    expect(expired).toMatch(/^__session=; /);
    expect(expired).toContain(EXPIRED);
    expect(expired).toContain('Path=/');
    // The browser has dropped its cookie: the next visit is a new session's first.
    const next = await request(app).get('/writes').expect(200);
    expect(visits(next)).toBe(1);
  });

  it('over https expires the __Host-session cookie with the attributes a browser needs to replace it', async () => {
    const app = host({ PUBLIC_ORIGIN: 'https://shop.example.com' });
    const https = { Host: 'shop.example.com' };
    const cookie = await signedIn(app, https);
    expect(cookie).toMatch(/^__Host-session=/);
    const out = await request(app).post('/writes?do=sign-out').set(https).set('Cookie', cookie).type(FORM).send('').expect(303);
    const [expired] = setCookies(out);
    // A browser accepts a __Host- cookie, even an expiring one, only with Secure and Path=/ (RFC 6265bis §4.1.3.2).
    expect(expired).toMatch(/^__Host-session=; /);
    expect(expired).toContain(EXPIRED);
    expect(expired).toContain('Secure');
    expect(expired).toContain('Path=/');
  });

  it('with values set after it, sends a new session instead of the expired one', async () => {
    const app = host();
    const cookie = await signedIn(app);
    const out = await request(app).post('/writes?do=sign-out-then-count').set('Cookie', cookie).type(FORM).send('').expect(303);
    const fresh = pair(out);
    expect(setCookies(out)[0]).not.toContain(EXPIRED);
    // The new session holds only what was set after destroy(): 100 visits, then this one.
    expect(visits(await request(app).get('/writes').set('Cookie', fresh).expect(200))).toBe(101);
  });
});
