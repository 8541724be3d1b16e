// Class: a loader that ignores its abort signal and never settles. It cannot hold a request:
// after the stream timeout (and the grace honest loaders get) the document gets the error page
// with a digest and 504, its navigation data (`.data`) its JSON error, each logged once as a timeout naming
// the route.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverErrorMessage } from '../../shared/messages.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

describe('a loader that never settles and ignores its signal', () => {
  let host: TestApp;
  beforeAll(() => {
    host = createTestApp({ STREAM_TIMEOUT_MS: '200' });
  });
  afterAll(() => host.close());

  it('gets the document its error page, 504, with the digest of its one timeout line', async () => {
    const res = await request(host.app).get('/_diag/stuck-loader').set(DIAG).expect(504);
    expect(res.text).toContain(serverErrorMessage('127.0.0.1'));
    const lines = host.logs.failures(res.headers['x-request-id']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      status: 504,
      route: 'page:diag/stuck-loader',
      digest: pageDigest(res.text),
      error: {
        type: 'LoaderTimeoutError',
        message: 'The loaders of diag/stuck-loader did not settle within the stream timeout of 200 ms',
      },
    });
  });

  it('gets its navigation data a JSON error, 504, logged once', async () => {
    const res = await request(host.app).get('/_diag/stuck-loader.data').set(DIAG).expect(504);
    const lines = host.logs.failures(res.headers['x-request-id']);
    expect(lines).toHaveLength(1);
    expect(res.body).toEqual({ error: { status: 504, message: 'Gateway Timeout', digest: lines[0]!.digest } });
    expect(lines[0]).toMatchObject({ route: 'data:diag/stuck-loader', error: { type: 'LoaderTimeoutError' } });
  });

  it('holds none of fifty concurrent requests, and gives all of them one digest', async () => {
    const all = await Promise.all(Array.from({ length: 50 }, () => request(host.app).get('/_diag/stuck-loader').set(DIAG)));
    expect(new Set(all.map((res) => res.status))).toEqual(new Set([504]));
    expect(new Set(all.map((res) => pageDigest(res.text))).size).toBe(1);
    for (const res of all) expect(host.logs.failures(res.headers['x-request-id'] as string)).toHaveLength(1);
  });

  it('does not exist without the diagnostics token', async () => {
    await request(host.app).get('/_diag/stuck-loader').expect(404);
  });
});
