import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';

// The demo's sign-in, guarded page and resource-route sign-out, and its entry page's own
// ErrorBoundary (client/pages/guestbook/): the host's part of route modules is tested over the
// fixture app (tests/pages/route-modules.test.ts).

const FORM = 'application/x-www-form-urlencoded';
const cookieOf = (res: request.Response) =>
  ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).map((c) => c.split(';')[0]!).join('; ');
const createDemo = () => createTestApp({}, {}, { app: 'demo' });

describe('the demo’s sign-in, guarded page and sign-out', () => {
  it('without a session, /guestbook/mine redirects to sign-in and its loader never runs (no failure)', async () => {
    const { app, logs } = createDemo();
    const res = await request(app).get('/guestbook/mine').expect(302);
    expect(res.headers.location).toBe('/guestbook/sign-in');
    expect(logs.failureCount()).toBe(0);
  });

  it('signing in with a name opens /guestbook/mine; signing out through the resource route clears the session with a 303', async () => {
    const { app } = createDemo();
    const refused = await request(app).post('/guestbook/sign-in').type(FORM).send('name=').expect(422);
    expect(refused.text).toContain('Please enter a name');
    const signIn = await request(app).post('/guestbook/sign-in').type(FORM).send('name=Ada').expect(303);
    expect(signIn.headers.location).toBe('/guestbook/mine');
    const session = cookieOf(signIn);
    const mine = await request(app).get('/guestbook/mine').set('Cookie', session).expect(200);
    expect(mine.text).toContain('Signed in as <strong data-testid="signed-in-as">Ada</strong>');
    const signOut = await request(app).post('/guestbook/sign-out').set('Cookie', session).type(FORM).send('').expect(303);
    expect(signOut.headers.location).toBe('/guestbook');
    await request(app).get('/guestbook/mine').set('Cookie', cookieOf(signOut)).expect(302);
    // The cookie kept from before: its session was deleted on the server.
    await request(app).get('/guestbook/mine').set('Cookie', session).expect(302);
  });

  it('"sign out everywhere" on /guestbook/mine signs out every device signed in under the name, and no other name', async () => {
    const { app } = createDemo();
    const signIn = async (name: string) =>
      cookieOf(await request(app).post('/guestbook/sign-in').type(FORM).send(`name=${name}`).expect(303));
    const [laptop, phone, other] = [await signIn('Ada'), await signIn('Ada'), await signIn('Bob')];
    const mine = await request(app).get('/guestbook/mine').set('Cookie', phone).expect(200);
    expect(mine.text).toContain('data-testid="sign-out-everywhere"');
    await request(app).post('/guestbook/sign-out').set('Cookie', phone).type(FORM).send('everywhere=1').expect(303);
    await request(app).get('/guestbook/mine').set('Cookie', phone).expect(302);
    await request(app).get('/guestbook/mine').set('Cookie', laptop).expect(302);
    await request(app).get('/guestbook/mine').set('Cookie', other).expect(200);
  });
});

describe('a route’s own ErrorBoundary', () => {
  it('an unknown entry is a 404 its route shows as “No such entry”, inside the site’s header, with no failure line', async () => {
    const { app, logs } = createDemo();
    const res = await request(app).get('/guestbook/entries/no-such-id').expect(404);
    expect(res.text).toContain('data-testid="entry-missing"');
    expect(res.text).toContain('No such entry');
    expect(res.text).toContain('class="site-header"');
    expect(logs.failureCount()).toBe(0);
    const nav = await request(app).get('/guestbook/entries/no-such-id.data').expect(404);
    expect(nav.text).toContain('"No such entry"');
  });

  it('an entry that exists has its page, titled from its data by the page’s meta export', async () => {
    const { app } = createDemo();
    await request(app).post('/guestbook').type(FORM).send('name=Grace&message=Hello there').expect(303);
    const api = await request(app).get('/api/guestbook').expect(200);
    const [entry] = (api.body as { entries: { id: string }[] }).entries;
    const res = await request(app).get(`/guestbook/entries/${entry!.id}`).expect(200);
    expect(res.text).toContain('<title>Grace · Guestbook</title>');
    expect(res.text).toContain('Hello there');
  });
});
