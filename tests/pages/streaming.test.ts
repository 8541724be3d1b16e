import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { fetchOnce, openStream } from '../../tools/harness/http.ts';
import { listeningTestApp, DIAG } from '../support/test-app.ts';
import { BROWSER_UA, CRAWLER_UA } from '../../tools/harness/user-agents.ts';

const FALLBACK = 'Loading the streamed section…';
const CONTENT = 'data-testid="streamed-content"';

describe('streaming SSR', () => {
  // Loopback is trusted as a proxy would be, so a test can name its request with X-Request-Id.
  const host = listeningTestApp({ STREAM_TIMEOUT_MS: '1000', TRUST_PROXY: 'loopback' });

  it('streams the shell with the Suspense fallback first and the resolved section later in the same response', async () => {
    const res = await fetchOnce(`${host.url}/`, { headers: { 'user-agent': BROWSER_UA } });
    expect(res.status).toBe(200);
    // React writes its shell in several chunks: the one with the fallback comes before any with the content.
    const fallbackAt = res.chunks.findIndex((chunk) => chunk.includes(FALLBACK));
    const contentAt = res.chunks.findIndex((chunk) => chunk.includes(CONTENT));
    expect(fallbackAt).toBeGreaterThanOrEqual(0);
    expect(contentAt).toBeGreaterThan(fallbackAt);
    expect(res.body.indexOf(FALLBACK)).toBeLessThan(res.body.indexOf(CONTENT));
    expect(res.body.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(res.body.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('gives a crawler the complete page with no fallback', async () => {
    const res = await fetchOnce(`${host.url}/`, { headers: { 'user-agent': CRAWLER_UA } });
    expect(res.status).toBe(200);
    expect(res.body).toContain(CONTENT);
    expect(res.body).not.toContain(FALLBACK);
  });

  it('answers HEAD with the page headers and no body', async () => {
    const res = await request(host.app).head('/').set('user-agent', BROWSER_UA);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.text ?? '').toBe('');
  });

  it('aborts a render that outlives the stream timeout, ending the response with the fallback', async () => {
    const res = await fetchOnce(`${host.url}/_diag/slow?ms=20000`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Waiting 20000 ms');
    expect(res.body).not.toContain('Finished after');
    const id = String(res.headers['x-request-id']);
    const [failure, ...others] = host.logs.failures(id);
    expect(others).toEqual([]);
    expect(failure).toMatchObject({ level: 50, status: 500, error: { type: 'StreamTimeoutError' } });
    // React marks the aborted boundary client-rendered ($RX) with the digest we logged (and its proof).
    expect(res.body).toMatch(new RegExp(`\\$RX\\("B:0","${failure!.digest as string}\\.[\\w-]{16}"\\)`));
  });

  it('aborts the render of a client that disconnects, without logging a failure', async () => {
    const reqId = 'disconnecting-client-1';
    const headers = { 'user-agent': BROWSER_UA, 'x-request-id': reqId, ...DIAG };
    const stream = await openStream(`${host.url}/_diag/slow?ms=600`, headers, 'Waiting 600 ms');
    expect(stream).toMatchObject({ open: true, first: expect.stringContaining('Waiting 600 ms') });
    stream.destroy();
    const access = await host.logs.waitFor((line) => host.logs.access(reqId) === line);
    expect(access.msg).toBe('request aborted');
    expect(host.logs.failures(reqId)).toEqual([]);
  });
});
