import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { browserSuite, openPage } from '../support/browser.ts';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';

// A framework-mode app written as React Router's docs write one (tests/apps/framework: its root
// Layout, links() with `?url`, component props, isRouteErrorResponse, route ids from file paths,
// a resource route under useFetcher, the top route's action, a prerendered page) runs on the host
// unchanged, with JavaScript and without, with an entry.server of its own. Its types are checked by `npm run typecheck:apps`.

const FORM = 'application/x-www-form-urlencoded';
const errorsOf = (console: { type: string; text: string }[]) => console.filter((e) => e.type === 'error' || e.type === 'pageerror');

describe('a framework-mode app on the host', () => {
  const suite = browserSuite({}, { app: 'framework', prerendered: true });

  it('renders in its root Layout, with the stylesheet links() names served', async () => {
    const { app } = suite.host;
    const home = await request(app).get('/').expect(200);
    // Its own entry.server answered (its Content-Type, where the host's names the charset), every script with the answer's nonce.
    expect(home.headers['content-type']).toBe('text/html');
    const nonce = /'nonce-([^']+)'/.exec(String(home.headers['content-security-policy']))?.[1];
    const scripts = [...home.text.matchAll(/<script[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);
    expect(home.text).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(home.text).toContain('<title>Contacts</title>');
    const [link, stylesheet] = /<link[^>]* rel="stylesheet" href="(\/assets\/app-[\w-]+\.css)"[^>]*>/.exec(home.text) ?? [];
    expect(stylesheet).toBeDefined();
    const css = await request(app).get(stylesheet!).expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.text).toContain('list-style:square');
    // Written into the document too, where its entry's stream passed the host (the link kept for hydration, unblocking).
    expect(link).toContain(' media="print"');
    expect(home.text).toContain(`<style nonce="${nonce}">${css.text}</style>${link}`);
  });

  it('gives components their props: loaderData, params and matches', async () => {
    const contact = await request(suite.host.app).get('/contacts/shruti').expect(200);
    expect(contact.text).toContain('<h1>Shruti Kapoor</h1>');
    expect(contact.text).toContain('data-param="shruti"');
    expect(contact.text).toContain('data-matches="2"');
  });

  it("shows a loader's 404 Response in the root boundary as isRouteErrorResponse tells it, with no failure line", async () => {
    const { app, logs } = suite.host;
    const before = logs.failureCount();
    const missing = await request(app).get('/contacts/nobody').expect(404);
    expect(missing.text).toContain('<h1>404</h1>');
    expect(missing.text).toContain('The requested page could not be found.');
    expect(logs.failureCount()).toBe(before);
  });

  it('shows a thrown error in the root boundary as a 500, logged once with a digest, its message kept from the page', async () => {
    const { app, logs } = suite.host;
    const boom = await request(app).get('/boom').expect(500);
    expect(boom.text).toContain('id="error-page"');
    expect(boom.text).not.toContain('failed on purpose');
    expect(boom.text).not.toMatch(/\bat .*\.js:\d+/);
    const failures = logs.failures(String(boom.headers['x-request-id']));
    expect(failures).toHaveLength(1);
    expect(failures[0]!.route).toBe('page:routes/boom');
    expect(failures[0]!.digest).toMatch(SERVER_DIGEST);
  });

  it('answers the navigation data of a route whose id has a slash', async () => {
    const data = await request(suite.host.app).get('/contacts/glenn.data').query({ _routes: 'routes/contact' }).expect(200);
    expect(data.headers['content-type']).toMatch(/^text\/x-script/);
    expect(data.text).toContain('Glenn');
  });

  it('serves the page react-router.config.ts prerenders, from the build', async () => {
    const about = await request(suite.host.app).get('/about').expect(200);
    expect(about.headers['x-cache']).toBe('PRERENDERED');
    expect(about.text).toContain('A framework-mode app on the host.');
  });

  it("posts a form to / without JavaScript: the top route's action runs, then a 303 back with the flash", async () => {
    const { app } = suite.host;
    const posted = await request(app).post('/').type(FORM).send('note=no script').expect(303);
    expect(posted.headers.location).toBe('/');
    const cookie = String(posted.headers['set-cookie']).split(';')[0]!;
    const after = await request(app).get('/').set('Cookie', cookie).expect(200);
    expect(after.text).toContain('Noted: no script');
    const empty = await request(app).post('/').type(FORM).send('note=').expect(422);
    expect(empty.text).toContain('<h1>Contacts</h1>');
  });

  it('hydrates and navigates: a link, the top action from a Form, and a fetcher loading a resource route in place', async () => {
    const { page, console, close } = await openPage(suite.browser);
    await page.goto(`${suite.origin}/`);
    // The host's browser entry marks the document once React has hydrated it (client/router/Hydrated.tsx).
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    // The fetcher's JSON lands in the page; the tab still shows the app.
    await page.locator('#count').click();
    await page.locator('#counted').filter({ hasText: '2 contacts' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The top route's action, from a <Form> posting to `/`.
    await page.getByLabel('Note').fill('with script');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('#noted').filter({ hasText: 'Noted: with script' }).waitFor();
    // A client navigation to a route with params, and the root boundary's 404 after another.
    await page.getByRole('link', { name: 'Glenn Reyes' }).click();
    await page.locator('#contact h1').filter({ hasText: 'Glenn Reyes' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'A contact that is not there' }).click();
    await page.locator('#error-page h1').filter({ hasText: '404' }).waitFor();
    expect(errorsOf(console).filter((entry) => !entry.text.includes('404'))).toEqual([]);
    await close();
  });
});
