import { Suspense } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import type { RenderErrorPage } from '../../server/error-pages/error-page-cache.ts';
import { FALLBACK_HOSTNAME, serverErrorMessage } from '../../shared/messages.ts';
import { pageDigest, streamedDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { LEVEL } from '../../shared/log-line.ts';
import { createBareApp, createTestApp, DIAG } from '../support/test-app.ts';
import { jsonLines, runDigest } from '../support/digest-cli.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

function Broken(): never {
  throw new Error('error page is broken');
}

/** Suspends forever: a render that never completes. */
function Never(): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a thrown promise is how a component suspends
  throw new Promise(() => {});
}

/** What must never reach a client in production: messages, stack frames, file paths. */
const LEAKS = /threw|rejected|\bat \w+ \(|\/work\/|\.tsx?\b|node_modules|file:\/\//;

function requestId(res: { headers: Record<string, unknown> }): string {
  return res.headers['x-request-id'] as string;
}

describe('server failures: digest on the page equals the digest of exactly one error log line', () => {
  it('a render error before the shell answers 500 with the error page, no-store, and the digest it logged', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/_diag/server-error').set(DIAG).set('user-agent', BROWSER_UA).expect(500);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(serverErrorMessage('127.0.0.1'));
    const digest = pageDigest(res.text);
    expect(digest).toMatch(SERVER_DIGEST);
    expect(res.text).toContain(`Digest: <code data-digest="">${digest}</code>`);
    const failures = logs.failures(requestId(res));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      level: LEVEL.error,
      digest,
      method: 'GET',
      path: '/_diag/server-error',
      status: 500,
      route: 'page:diag/server-error',
      error: { type: 'Error', message: 'Diagnostic server error: render threw before the shell' },
    });
    expect(logs.access(requestId(res))).toMatchObject({ digest, status: 500 });
    expect(res.text).not.toMatch(LEAKS);
  });

  it('a JSON route that throws answers JSON with a generic message and the digest', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/_diag/api-error').set(DIAG).expect(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: { status: 500, message: 'Internal Server Error', digest: expect.stringMatching(SERVER_DIGEST) } });
    const [failure, ...rest] = logs.failures(requestId(res));
    expect(rest).toEqual([]);
    expect(failure).toMatchObject({ digest: res.body.error.digest, route: '/_diag/api-error', status: 500 });
    expect(res.text).not.toMatch(LEAKS);
  });

  it('a handler whose promise rejects answers 500 with the digest it logged', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/_diag/async-error').set(DIAG).expect(500);
    const digest = pageDigest(res.text);
    expect(logs.failures(requestId(res)).map((line) => line.digest)).toEqual([digest]);
    expect(res.text).not.toMatch(LEAKS);
  });

  it("a navigation's data request for a failing loader gets the failure's digest in React Router's data, never an HTML page", async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/_diag/loader-error.data').set(DIAG).expect(500);
    expect(res.headers['content-type']).toBe('text/x-script');
    expect(res.text).not.toMatch(/<html/i);
    const [failure, ...rest] = logs.failures(requestId(res));
    expect(rest).toEqual([]);
    expect(failure).toMatchObject({ status: 500, route: 'data:diag/loader-error', digest: expect.stringMatching(SERVER_DIGEST) });
    expect(res.text).toContain(`"digest","${failure!.digest}"`);
    expect(res.text).not.toMatch(LEAKS);
  });

  it('an error inside Suspense after the shell keeps 200, logs once, and hands React the same digest', async () => {
    const host = createTestApp();
    await host.listen();
    try {
      const res = await fetchOnce(`${host.url}/_diag/stream-error`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
      expect(res.status).toBe(200);
      const digest = streamedDigest(res.body);
      expect(digest).toMatch(SERVER_DIGEST);
      const failures = host.logs.failures(requestId(res));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({
        digest,
        status: 500,
        headersSent: true,
        error: { message: expect.stringContaining('after the shell') },
      });
      expect(res.body.trimEnd().endsWith('</html>')).toBe(true);
      expect(res.body).not.toMatch(LEAKS);
    } finally {
      await host.close();
    }
  });

  it('the same failure twice gives the same digest; different failures give different digests', async () => {
    const { app } = createTestApp();
    const first = pageDigest((await request(app).get('/_diag/server-error').set(DIAG)).text);
    const second = pageDigest((await request(app).get('/_diag/server-error').set(DIAG)).text);
    const other = (await request(app).get('/_diag/api-error').set(DIAG)).body.error.digest;
    expect(first).toBe(second);
    expect(other).not.toBe(first);
  });

  it('a different DIGEST_KEY gives a different digest for the same failure', async () => {
    const a = pageDigest((await request(createTestApp().app).get('/_diag/server-error').set(DIAG)).text);
    const b = pageDigest(
      (
        await request(createTestApp({ DIGEST_KEY: 'another-key-0123456789' }).app)
          .get('/_diag/server-error')
          .set(DIAG)
      ).text,
    );
    expect(a).not.toBe(b);
  });

  it('in development the page also shows the message and the stack', async () => {
    const { app } = createTestApp({ NODE_ENV: 'development' });
    const res = await request(app).get('/_diag/server-error').set(DIAG).expect(500);
    expect(res.text).toContain('Diagnostic server error: render threw before the shell');
    expect(res.text).toMatch(/at ServerError \(.*server-error\.tsx:\d+:/);
  });

  it('never reflects a forged Host header; a configured PUBLIC_HOSTNAME wins', async () => {
    // A name a URL keeps but that is no plain host name; one it rejects is a 400 (tests/edge/host-origin.test.ts).
    const forged = await request(createTestApp().app).get('/_diag/server-error').set(DIAG).set('host', 'evil_host');
    expect(forged.text).toContain(serverErrorMessage('this site'));
    expect(forged.text).not.toContain('evil_host');
    const rejected = await request(createTestApp().app).get('/_diag/server-error').set(DIAG).set('host', 'evil_host<script>').expect(400);
    expect(rejected.text).not.toContain('evil_host');
    const configured = await request(createTestApp({ PUBLIC_HOSTNAME: 'shop.example.com' }).app)
      .get('/_diag/server-error')
      .set(DIAG);
    expect(configured.text).toContain(serverErrorMessage('shop.example.com'));
  });

  it('in production the page shows neither', async () => {
    const { app } = createTestApp();
    const res = await request(app).get('/_diag/server-error').set(DIAG).expect(500);
    expect(res.text).not.toContain('Diagnostic server error');
    expect(res.text).not.toMatch(/server-error\.tsx/);
  });
});

// The host's own error page (server/error-pages/): what the host answers itself, a failure no
// route's boundary shows. Broken on purpose here, through the error handler's render seam, on a
// bare app whose one route fails.
describe('when the host’s error page itself fails', () => {
  /** The bare app's route: a failure that reaches the host's error page. */
  const failing = () => {
    throw new Error('Diagnostic server error: render threw before the shell');
  };
  const reqId = 'error-page-broken-1';

  it.each<[string, RenderErrorPage]>([
    [
      'throws',
      () => {
        throw new Error('error page is broken');
      },
    ],
    ['fails inside React', (_props, options) => renderToPipeableStream(<Broken />, options)],
  ])('%s: the static page with the same digest, and the page failure logged once beside it', async (_name, renderErrorPage) => {
    const { app, logs } = createBareApp(reqId, failing, { renderErrorPage });
    for (let i = 0; i < 2; i++) {
      const linesBefore = logs.lines.length;
      const res = await request(app).get('/').expect(500);
      // The bare app resolves no origin: the text names no host.
      expect(res.text).toContain(serverErrorMessage(FALLBACK_HOSTNAME));
      expect(res.headers['cache-control']).toBe('no-store');
      const digest = /Digest: <code[^>]*>([\w-]+)<\/code>/.exec(res.text)?.[1];
      expect(digest).toMatch(SERVER_DIGEST);
      const [original, secondary, ...rest] = logs.lines.slice(linesBefore).filter((line) => line.error !== undefined);
      expect(rest).toEqual([]);
      expect(original).toMatchObject({
        level: LEVEL.error,
        digest,
        msg: 'request failed',
        error: { message: expect.stringContaining('render threw before the shell') },
      });
      expect(secondary).toMatchObject({
        level: LEVEL.error,
        digest,
        secondaryFailure: true,
        status: 500,
        error: { message: 'error page is broken' },
      });
    }
  });

  it('an error page that hangs is abandoned after its timeout: the static page is sent and the hang logged', async () => {
    const hanging: RenderErrorPage = (_props, options) =>
      renderToPipeableStream(
        <Suspense>
          <Never />
        </Suspense>,
        options,
      );
    const { app, logs } = createBareApp(reqId, failing, { renderErrorPage: hanging, errorPageTimeoutMs: 200 });
    const res = await request(app).get('/').expect(500);
    const digest = /Digest: <code[^>]*>([\w-]+)<\/code>/.exec(res.text)?.[1];
    expect(digest).toMatch(SERVER_DIGEST);
    expect(logs.failures(reqId)[1]).toMatchObject({ digest, secondaryFailure: true, error: { type: 'ErrorPageTimeoutError' } });
  });

  it('the digest tool counts a secondary failure apart, never as another occurrence', async () => {
    const { app, logs } = createBareApp(reqId, failing, {
      renderErrorPage: () => {
        throw new Error('error page is broken');
      },
    });
    const res = await request(app).get('/').expect(500);
    const digest = /Digest: <code[^>]*>([\w-]+)<\/code>/.exec(res.text)![1]!;
    const run = runDigest([digest, '-'], { input: jsonLines(logs.lines) });
    expect(run.stdout).toContain(`Digest ${digest} — 1 occurrence`);
    expect(run.stdout).toMatch(/error page +failed too ×1/);
  });
});
