import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { serverErrorMessage } from '../../shared/messages.ts';
import { pageDigest, streamedDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { LEVEL } from '../../shared/log-line.ts';
import { createTestApp } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

// JavaScript can throw anything. Whatever a page throws, the response is the error page with a
// digest, and the log holds exactly one bounded line with that digest that describes the value.
// The fixture app's /throws/:kind throws them (tests/apps/host/app/routes/throws.tsx).

/** The issue's bound for one failure line (issue 11's contract for lean logs). */
const MAX_LINE_BYTES = 8 * 1024;

/** Each value, by the fixture's name for it, and what its log line must say of it (type and a piece of its message). */
const VALUES: [string, string, { type: string; message: RegExp }][] = [
  ['a null-prototype object', 'null-prototype?code=EDB', { type: 'object (null prototype)', message: /code: "EDB"/ }],
  ['a plain object', 'object?code=EPAY', { type: 'object', message: /code: "EPAY"/ }],
  ['a string', 'string', { type: 'string', message: /^payment service said no$/ }],
  ['a number', 'number', { type: 'number', message: /^42$/ }],
  ['undefined', 'undefined', { type: 'undefined', message: /^undefined$/ }],
  ['null', 'null', { type: 'null', message: /^null$/ }],
  ['a Symbol', 'symbol?text=checkout', { type: 'Symbol', message: /^Symbol\(checkout\)$/ }],
  ['an object whose getters throw', 'throwing-getter', { type: 'object', message: /code: undefined/ }],
  ['an object whose toString throws', 'throwing-to-string', { type: 'object', message: /id: "X"/ }],
  // React itself reads a thrown value (is it a thenable? its message?): when that read throws,
  // the failure React reports is the read's error, and that is what gets the line and digest.
  ['an Error whose message getter throws', 'throwing-message', { type: 'Error', message: /^message getter$/ }],
  ['a Proxy whose every trap throws', 'hostile-proxy', { type: 'Error', message: /^get trap$/ }],
  ['an Error with a cyclic cause', 'cyclic-cause', { type: 'Error', message: /^outer failure$/ }],
  ['a very long string', 'long-string', { type: 'string', message: /^x{1024}…$/ }],
];

/** The fixture's page throwing `value` (its name and query) where `where` says. */
function thrower(value: string, where?: 'suspense' | 'loader'): string {
  const [kind, query = ''] = value.split('?');
  const params = new URLSearchParams(query);
  if (where !== undefined) params.set('in', where);
  return `/throws/${kind}${params.size > 0 ? `?${params}` : ''}`;
}

describe('any thrown value gets a status, a digest, one bounded log line and the error page', () => {
  it.each(VALUES)('%s', async (_name, value, expected) => {
    const { app, logs } = createTestApp();
    const res = await request(app).get(thrower(value)).set('user-agent', BROWSER_UA).expect(500);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(serverErrorMessage('127.0.0.1'));
    const digest = pageDigest(res.text);
    expect(digest).toMatch(SERVER_DIGEST);
    const failures = logs.failures(res.headers['x-request-id']);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: LEVEL.error, status: 500, digest, error: { type: expected.type } });
    expect((failures[0]!.error as { message: string }).message).toMatch(expected.message);
    expect(Buffer.byteLength(JSON.stringify(failures[0]))).toBeLessThan(MAX_LINE_BYTES);
  });

  it('distinct objects get distinct digests, and their ids do not split one failure', async () => {
    const { app } = createTestApp();
    const digestOf = async (value: string) => pageDigest((await request(app).get(thrower(value)).expect(500)).text);
    const edb = await digestOf('object?code=EDB&orderId=1234');
    expect(await digestOf('object?code=EDB&orderId=98765')).toBe(edb);
    expect(await digestOf('object?code=EPAY&orderId=1234')).not.toBe(edb);
    expect(await digestOf('null-prototype?code=EDB')).not.toBe(await digestOf('null-prototype?code=EPAY'));
    expect(await digestOf('string?text=a')).not.toBe(await digestOf('symbol?text=a'));
  });

  it('a null-prototype object thrown after the shell keeps 200 and hands React the digest it logged', async () => {
    const host = createTestApp();
    await host.listen();
    try {
      const res = await fetchOnce(`${host.url}${thrower('null-prototype?code=ELATE', 'suspense')}`, {
        headers: { 'user-agent': BROWSER_UA },
      });
      expect(res.status).toBe(200);
      const failures = host.logs.failures(String(res.headers['x-request-id']));
      expect(failures).toHaveLength(1);
      expect(streamedDigest(res.body)).toBe(failures[0]!.digest);
      expect(failures[0]).toMatchObject({ headersSent: true, error: { type: 'object (null prototype)', message: '{ code: "ELATE" }' } });
    } finally {
      await host.close();
    }
  });
});

describe('messages that carry per-occurrence values', () => {
  it('share a digest: numbers, UUIDs, long hex ids and timestamps do not split one failure', async () => {
    // The fixture's message: `User <n> not found (request <uuid>, at <time>, session <hex>)`, new values each render.
    const { app } = createTestApp();
    const digests = new Set<string | undefined>();
    for (let i = 0; i < 5; i++) digests.add(pageDigest((await request(app).get(thrower('ids?template=user')).expect(500)).text));
    expect(digests.size).toBe(1);
    expect(pageDigest((await request(app).get(thrower('ids?template=order')).expect(500)).text)).not.toBe([...digests][0]);
  });
});

describe('values thrown by a loader', () => {
  it.each([
    ['undefined', 'undefined', 'undefined'],
    ['null', 'null', 'null'],
    ['a null-prototype object', 'null-prototype?code=ELOADER', 'object (null prototype)'],
  ])('%s is a 500 with a digest, not a "no error" that falls through to a 404', async (_name, value, type) => {
    const { app, logs } = createTestApp();
    const res = await request(app).get(thrower(value, 'loader')).expect(500);
    const digest = pageDigest(res.text);
    expect(digest).toMatch(SERVER_DIGEST);
    expect(logs.failures(res.headers['x-request-id'] as string)).toEqual([
      expect.objectContaining({ digest, error: expect.objectContaining({ type }) }),
    ]);
    // A navigation's data (React Router's single fetch) carries the same failure's digest.
    const [kind, query = ''] = value.split('?');
    const data = await request(app)
      .get(`/throws/${kind}.data?${new URLSearchParams(query)}&in=loader`)
      .expect(500);
    expect(data.text).toContain(digest);
  });
});
