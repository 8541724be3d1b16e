// Sessions held on the server (server/writes/session.ts): the cookie carries a signed id, the
// data is in a store, so a sign-out is final (a cookie kept from before it finds nothing), a
// sign-in moves the session to a new id, "sign out everywhere" ends every session of the member,
// and a session ends past its idle and absolute lifetimes. The fixture app's members pages
// (tests/apps/host/app/routes/members-*.tsx) sign in and out; its guard redirects a visitor
// without a member to sign in.
import { createCookie } from 'react-router';
import request from 'supertest';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionSecrets } from '../../server/writes/session-secret.ts';
import { loadConfig } from '../../server/config/config.ts';
import { createSessions } from '../../server/writes/session.ts';
import { createMemorySessionStore } from '../../server/writes/memory-sessions.ts';
import { createTestApp } from '../support/test-app.ts';
import { pair, sessionApp, setCookies, visits } from '../support/session-app.ts';

const FORM = 'application/x-www-form-urlencoded';
type App = ReturnType<typeof sessionApp>;

async function signIn(app: App, name: string, cookie?: string): Promise<string> {
  const req = request(app).post('/members/sign-in').type(FORM);
  if (cookie !== undefined) req.set('Cookie', cookie);
  return pair(await req.send(`name=${name}`).expect(303));
}
/** Whether `cookie` is a signed-in member's: the guard lets it in, or redirects it to sign in. */
const isMember = async (app: App, cookie: string) => (await request(app).get('/members').set('Cookie', cookie)).status === 200;
const signOut = (app: App, cookie: string, body = '') =>
  request(app).post('/members/sign-out').set('Cookie', cookie).type(FORM).send(body).expect(303);

const SECRET = 's'.repeat(32);

describe('sessions held on the server', () => {
  it('an anonymous visit that sets nothing writes nothing to the store', async () => {
    const store = createMemorySessionStore();
    const writes: string[] = [];
    const counting = { ...store, create: (...args: Parameters<typeof store.create>) => (writes.push(args[0]), store.create(...args)) };
    const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: SECRET });
    const { app } = createTestApp({ SESSION_SECRET: SECRET }, { sessions: createSessions(config, counting, [SECRET]) });
    for (const path of ['/', '/notes', '/members/sign-in']) await request(app).get(path);
    expect(writes).toEqual([]);
  });

  it("a cookie of the days the data was in it, signed with the same secret, is no one's session", async () => {
    const app = sessionApp();
    const cookie = createCookie('__session', { secrets: [SECRET] });
    const old = await cookie.serialize({ member: 'Mallory', 'host:user': 'Mallory', visits: 5 });
    const planted = old.split(';')[0]!;
    expect(await isMember(app, planted)).toBe(false);
    const res = await request(app).get('/writes').set('Cookie', planted).expect(200);
    expect(visits(res)).toBe(1);
    // What it set went under an id of the host's own, not under the cookie's contents.
    expect(await cookie.parse(pair(res))).toMatch(/^[\w-]{32}$/);
  });

  it('a request that read the session before a sign-out cannot bring it back by writing after it', async () => {
    const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: SECRET });
    const sessions = createSessions(config, createMemorySessionStore(), [SECRET]);
    const first = await sessions.read(undefined, false);
    first.signIn('ada');
    const cookie = (await sessions.commit(first))!.split(';')[0]!;
    const [signingOut, slow] = [await sessions.read(cookie, false), await sessions.read(cookie, false)];
    signingOut.destroy();
    await sessions.commit(signingOut);
    slow.set('visits' as never, 9 as never);
    await sessions.commit(slow);
    const after = await sessions.read(cookie, false);
    expect(after.get('host:user' as never)).toBeUndefined();
    expect(after.id).toBe('');
  });

  it('a cookie kept from before sign-out is signed out after it: the data is gone, not only the cookie', async () => {
    const app = sessionApp();
    const cookie = await signIn(app, 'Ada');
    expect(await isMember(app, cookie)).toBe(true);
    const out = await signOut(app, cookie);
    expect(setCookies(out)[0]).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    // The replayed cookie: its signature is still good, but its id names nothing.
    expect(await isMember(app, cookie)).toBe(false);
  });

  it('sign-in moves the session to a new id: an id planted before it is worth nothing after', async () => {
    const app = sessionApp();
    const before = pair(await request(app).get('/writes').expect(200));
    const after = await signIn(app, 'Ada', before);
    expect(after.split('.')[0]).not.toBe(before.split('.')[0]);
    expect(await isMember(app, after)).toBe(true);
    // What the session held before sign-in came along: the visit count goes on under the new id.
    expect(visits(await request(app).get('/writes').set('Cookie', after).expect(200))).toBe(2);
    // The old id's record is gone: its cookie starts a new session's first visit.
    expect(visits(await request(app).get('/writes').set('Cookie', before).expect(200))).toBe(1);
  });

  it("sign out everywhere ends every session of the member, on every device, and no one else's", async () => {
    const app = sessionApp();
    const [laptop, phone, other] = [await signIn(app, 'Ada'), await signIn(app, 'Ada'), await signIn(app, 'Bob')];
    await signOut(app, laptop, 'everywhere=1');
    expect(await isMember(app, laptop)).toBe(false);
    expect(await isMember(app, phone)).toBe(false);
    expect(await isMember(app, other)).toBe(true);
  });

  it('ends a session unused for SESSION_IDLE_TIMEOUT_S, and any session SESSION_ABSOLUTE_TIMEOUT_S after its start', async () => {
    let clock = Date.parse('2026-11-27T12:00:00Z');
    const now = () => clock;
    const env = { SESSION_SECRET: 's'.repeat(32), SESSION_IDLE_TIMEOUT_S: '600', SESSION_ABSOLUTE_TIMEOUT_S: '1800' };
    const config = loadConfig({ NODE_ENV: 'production', ...env });
    const sessions = createSessions(config, createMemorySessionStore(now), config.sessionSecrets!, now);
    const { app } = createTestApp(env, { sessions });

    const idle = await signIn(app, 'Ada');
    clock += 601_000;
    expect(await isMember(app, idle)).toBe(false);

    // Used every 4 minutes, it outlives its idle time, until 30 minutes after it began.
    let cookie = await signIn(app, 'Bob');
    for (let minutes = 4; minutes < 30; minutes += 4) {
      clock += 240_000;
      const res = await request(app).get('/members').set('Cookie', cookie).expect(200);
      // Written back with a new end once half its idle time has passed: the cookie comes again.
      if (setCookies(res).length > 0) cookie = pair(res);
    }
    // 33 minutes after it began, 9 after its last use: within its idle time, past its absolute one.
    clock += 300_000;
    expect(await isMember(app, cookie)).toBe(false);
  });
});

describe('the session secret without SESSION_SECRET', () => {
  const folder = mkdtempSync(join(tmpdir(), 'react-ssr-host-secret-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('a dev server keeps one in a file only its owner reads, the same across restarts; production makes one per process', () => {
    const file = join(folder, 'data/dev-session-secret');
    const dev = { sessionSecrets: undefined, nodeEnv: 'development' } as const;
    const [first] = sessionSecrets(dev, file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    expect(sessionSecrets(dev, file)).toEqual([first]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const production = { sessionSecrets: undefined, nodeEnv: 'production' } as const;
    expect(sessionSecrets(production, file)).not.toEqual(sessionSecrets(production, file));
    expect(sessionSecrets({ sessionSecrets: ['k'.repeat(32)], nodeEnv: 'development' }, file)).toEqual(['k'.repeat(32)]);
  });
});
