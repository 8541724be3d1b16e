// The digests of the host's own 5xx failures are pinned: a change to one (a new message, a
// renamed type, a stack where there was none) changes what operators search for, so it must be
// deliberate. Each is hashed from its type and message only; the same digests come out of the
// HTTP paths that raise them.
import request from 'supertest';
import { freePort } from '../../tools/harness/net.ts';
import { describe, expect, it } from 'vitest';
import { ErrorPageTimeoutError } from '../../server/failures/errors.ts';
import { createDigester } from '../../server/failures/digest.ts';
import { httpError } from '../../server/failures/errors.ts';
import { CrossOriginRedirectError, LoaderTimeoutError, StreamTimeoutError } from '../../server/failures/errors.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';

/** createTestApp's key. */
const digest = createDigester('test-digest-key-0123456789');

const PINNED: [name: string, error: Error, digest: string][] = [
  ['a render past the stream timeout', new StreamTimeoutError(5_000), '8bGWvkySJpIzhKq-'],
  ['the same, with another timeout', new StreamTimeoutError(300), '8bGWvkySJpIzhKq-'],
  ['loaders that never settled (the stuck-loader diagnostic)', new LoaderTimeoutError('diag/stuck-loader', 200), 'Ye6JxEQ8nt36ZRYE'],
  ['a refused redirect, whatever its target', new CrossOriginRedirectError('//evil.example'), 'eX1ATGqZu5jlpjaf'],
  ['the same, another target', new CrossOriginRedirectError('http:elsewhere'), 'eX1ATGqZu5jlpjaf'],
  [
    'the tunnel: Sentry unreachable',
    httpError(502, 'Sentry could not be reached', { detail: 'fetch failed', stackless: true }),
    'JQAu7wbB6MvNhpa3',
  ],
  ['the tunnel: Sentry too slow', httpError(504, 'Sentry did not answer in time', { stackless: true }), 'WG4l5mFHtvgfCAwV'],
  [
    'the tunnel: Sentry redirected',
    httpError(502, 'Sentry answered with a redirect, which is not followed', { stackless: true }),
    'hBPezzzqj595_pSh',
  ],
  ['an error page that hung (a secondary failure)', new ErrorPageTimeoutError(1_000), 'Ez_s5IMrb_UijDmq'],
];

describe('the digests of the host’s own failures', () => {
  it.each(PINNED)('%s: pinned', (_name, error, pinned) => {
    expect(digest(error)).toBe(pinned);
  });

  it('come out of the HTTP paths that raise them', async () => {
    const host = createTestApp({ STREAM_TIMEOUT_MS: '200' });
    const refused = await request(host.app).get('/_diag/redirect?to=//evil.example').set(DIAG).expect(500);
    expect(pageDigest(refused.text)).toBe(digest(new CrossOriginRedirectError('')));
    const stuck = await request(host.app).get('/_diag/stuck-loader').set(DIAG).expect(504);
    expect(pageDigest(stuck.text)).toBe(digest(new LoaderTimeoutError('diag/stuck-loader', 200)));
  });

  it('the tunnel’s 502 has its pinned digest, and what the network said is the line’s detail', async () => {
    // A DSN whose ingest is a port nothing listens on: Sentry cannot be reached. On 127.0.0.2, where
    // the tests' servers (on 127.0.0.1) never listen: a free port may be one of theirs by the time it is dialled.
    const dsn = `http://public@127.0.0.2:${await freePort()}/1`;
    const host = createTestApp({ SENTRY_DSN: dsn, TRUST_PROXY: 'loopback' });
    const envelope = `${JSON.stringify({ dsn })}\n{"type":"event"}\n{}`;
    const res = await request(host.app).post('/monitoring').set('content-type', 'text/plain').send(envelope).expect(502);
    expect(res.body.error.digest).toBe('JQAu7wbB6MvNhpa3');
    const [line] = host.logs.failures(res.headers['x-request-id']);
    expect(line!.error).toMatchObject({
      type: 'HttpError',
      message: 'Sentry could not be reached',
      detail: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
