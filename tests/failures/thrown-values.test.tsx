import { Suspense, use } from 'react';
import { randomUUID } from 'node:crypto';
import type { ComponentType } from 'react';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { createRenderer } from '../../client/entry-server.tsx';
import { serverErrorMessage } from '../../shared/messages.ts';
import { pageDigest, streamedDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { LEVEL } from '../../shared/log-line.ts';
import { createTestApp } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

// JavaScript can throw anything. Whatever a page throws, the response is the error page with a
// digest, and the log holds exactly one bounded line with that digest that describes the value.

/** The issue's bound for one failure line (issue 11's contract for lean logs). */
const MAX_LINE_BYTES = 8 * 1024;

function nullPrototype(fields: Record<string, unknown>): object {
  return Object.assign(Object.create(null) as object, fields);
}

function cyclicCause(): Error {
  const a = new Error('outer failure');
  const b = new Error('inner failure', { cause: a });
  (a as { cause?: unknown }).cause = b;
  return a;
}

const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('get trap');
    },
    ownKeys() {
      throw new Error('ownKeys trap');
    },
    getPrototypeOf() {
      throw new Error('getPrototypeOf trap');
    },
    has() {
      throw new Error('has trap');
    },
  },
);

/** Each value, what its log line must say of it (type and a piece of its message). */
const VALUES: [string, () => unknown, { type: string; message: RegExp }][] = [
  ['a null-prototype object', () => nullPrototype({ code: 'EDB' }), { type: 'object (null prototype)', message: /code: "EDB"/ }],
  ['a plain object', () => ({ code: 'EPAY', retry: false }), { type: 'object', message: /code: "EPAY"/ }],
  ['a string', () => 'payment service said no', { type: 'string', message: /^payment service said no$/ }],
  ['a number', () => 42, { type: 'number', message: /^42$/ }],
  ['undefined', () => undefined, { type: 'undefined', message: /^undefined$/ }],
  ['null', () => null, { type: 'null', message: /^null$/ }],
  ['a Symbol', () => Symbol('checkout'), { type: 'Symbol', message: /^Symbol\(checkout\)$/ }],
  [
    'an object whose getters throw',
    () => ({
      get code(): string {
        throw new Error('getter');
      },
    }),
    { type: 'object', message: /code: undefined/ },
  ],
  [
    'an object whose toString throws',
    () => ({
      toString() {
        throw new Error('toString');
      },
      id: 'X',
    }),
    { type: 'object', message: /id: "X"/ },
  ],
  // React itself reads a thrown value (is it a thenable? its message?): when that read throws,
  // the failure React reports is the read's error, and that is what gets the line and digest.
  [
    'an Error whose message getter throws',
    () =>
      Object.defineProperty(new TypeError('x'), 'message', {
        get() {
          throw new Error('message getter');
        },
      }),
    { type: 'Error', message: /^message getter$/ },
  ],
  ['a Proxy whose every trap throws', () => hostile, { type: 'Error', message: /^get trap$/ }],
  ['an Error with a cyclic cause', cyclicCause, { type: 'Error', message: /^outer failure$/ }],
  ['a very long string', () => 'x'.repeat(100_000), { type: 'string', message: /^x{1024}…$/ }],
];

/** The real app with one page, at `/`: this component. */
function appWithPage(Page: ComponentType) {
  return createTestApp(
    {},
    {},
    createRenderer([{ id: 'thrower', path: '/', page: () => Promise.resolve({ default: Page }), meta: { title: 'Thrower' } }]),
  );
}

/** The real app whose page throws `value` while rendering, before or after the shell. */
function appThrowing(value: () => unknown, where: 'shell' | 'suspense' = 'shell') {
  function Throws(): never {
    throw value();
  }
  function ThrowsLater() {
    use(
      new Promise((resolve) => setTimeout(resolve, 10)).then(() => {
        throw value();
      }),
    );
    return null;
  }
  const Later = () => (
    <Suspense fallback={<p>loading</p>}>
      <ThrowsLater />
    </Suspense>
  );
  return appWithPage(where === 'shell' ? Throws : Later);
}

describe('any thrown value gets a status, a digest, one bounded log line and the error page', () => {
  it.each(VALUES)('%s', async (_name, value, expected) => {
    const { app, logs } = appThrowing(value);
    const res = await request(app).get('/').set('user-agent', BROWSER_UA).expect(500);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(serverErrorMessage('127.0.0.1'));
    const digest = pageDigest(res.text);
    expect(digest).toMatch(SERVER_DIGEST);
    const failures = logs.failures(res.headers['x-request-id']);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: LEVEL.error, status: 500, digest, error: { type: expected.type } });
    expect((failures[0]!.error as { message: string }).message).toMatch(expected.message);
    expect(Buffer.byteLength(JSON.stringify(failures[0]))).toBeLessThan(MAX_LINE_BYTES);
    // Asked for JSON, the same failure gets the same digest.
    const json = await request(app).get('/').set('accept', 'application/json').expect(500);
    expect(json.body.error).toEqual({ status: 500, message: 'Internal Server Error', digest });
  });

  it('distinct objects get distinct digests, and their ids do not split one failure', async () => {
    const digestOf = async (value: () => unknown) => pageDigest((await request(appThrowing(value).app).get('/')).text);
    const edb = await digestOf(() => ({ code: 'EDB', orderId: 1234 }));
    expect(await digestOf(() => ({ code: 'EDB', orderId: 98_765 }))).toBe(edb);
    expect(await digestOf(() => ({ code: 'EPAY', orderId: 1234 }))).not.toBe(edb);
    expect(await digestOf(() => nullPrototype({ code: 'EDB' }))).not.toBe(await digestOf(() => nullPrototype({ code: 'EPAY' })));
    expect(await digestOf(() => 'a')).not.toBe(await digestOf(() => Symbol('a')));
  });

  it('a null-prototype object thrown after the shell keeps 200 and hands React the digest it logged', async () => {
    const host = appThrowing(() => nullPrototype({ code: 'ELATE' }), 'suspense');
    await host.listen();
    try {
      const res = await fetchOnce(`${host.url}/`, { headers: { 'user-agent': BROWSER_UA } });
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
  let counter = 1000;
  /** The page throws a message with a fresh UUID, a counter, a timestamp and a hex id. */
  function appWithIds(template: (ids: { reqId: string; n: number; time: string; hex: string }) => string) {
    function Throws(): never {
      const n = counter++;
      throw new Error(
        template({
          reqId: randomUUID(),
          n,
          time: new Date(Date.now() + n * 1000).toISOString(),
          hex: (0xabc000 + n).toString(16).padStart(16, 'f0'),
        }),
      );
    }
    return appWithPage(Throws).app;
  }

  it('share a digest: numbers, UUIDs, long hex ids and timestamps do not split one failure', async () => {
    const app = appWithIds(({ reqId, n, time, hex }) => `User ${n} not found (request ${reqId}, at ${time}, session ${hex})`);
    const digests = new Set<string | undefined>();
    for (let i = 0; i < 5; i++) digests.add(pageDigest((await request(app).get('/').expect(500)).text));
    expect(digests.size).toBe(1);
    const other = appWithIds(({ n }) => `Order ${n} not found`);
    expect(pageDigest((await request(other).get('/').expect(500)).text)).not.toBe([...digests][0]);
  });
});

describe('values thrown by a loader', () => {
  it.each([
    ['undefined', () => undefined, 'undefined'],
    ['null', () => null, 'null'],
    ['a null-prototype object', () => nullPrototype({ code: 'ELOADER' }), 'object (null prototype)'],
  ])('%s is a 500 with a digest, not a "no error" that falls through to a 404', async (_name, value, type) => {
    const page = () => Promise.resolve({ default: () => <p>never shown</p> });
    const loader = () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the odd thrown values are the point
      throw value();
    };
    const { app, logs } = createTestApp(
      {},
      {},
      createRenderer([{ id: 'loads', path: '/', page, server: () => Promise.resolve({ loader }), meta: { title: 'Loads' } }]),
    );
    const res = await request(app).get('/').expect(500);
    const digest = pageDigest(res.text);
    expect(logs.failures(res.headers['x-request-id'] as string)).toEqual([
      expect.objectContaining({ digest, error: expect.objectContaining({ type }) }),
    ]);
  });
});
