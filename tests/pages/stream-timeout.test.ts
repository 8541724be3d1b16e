import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { fetchOnce } from '../../tools/harness/http.ts';
import { BROWSER_UA, CRAWLER_UA } from '../../tools/harness/user-agents.ts';
import { appBuild, createTestApp } from '../support/test-app.ts';

/** The fixture page's module as the host runs it (tests/apps/host/app/routes/fixture.tsx): its late loader settles here. */
const fixture = appBuild().serverBuild.routes['routes/fixture']!.module as unknown as { late: { loader: Promise<void> } };

describe('a page past its stream timeout', () => {
  it('streams the failure of a value its loader gave up on, with the digest it logged once', async () => {
    const slow = createTestApp({ STREAM_TIMEOUT_MS: '300' });
    await slow.listen();
    try {
      const res = await fetchOnce(`${slow.url}/fixture/ada?hold=20000`, { headers: { 'user-agent': BROWSER_UA } });
      const lines = slow.logs.failures(res.headers['x-request-id'] as string);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ error: { type: 'StreamTimeoutError' } });
      // React marks the section client-rendered ($RX) with the digest logged (and its proof).
      expect(res.body).toMatch(new RegExp(`\\$RX\\("B:\\d+","${lines[0]!.digest as string}\\.[\\w-]{16}"`));
    } finally {
      await slow.close();
    }
  });

  it('a loader that ignores its signal and settles after the answer adds nothing: one timeout line, no render', async () => {
    const slow = createTestApp({ STREAM_TIMEOUT_MS: '200' });
    const res = await request(slow.app).get('/fixture/ada?settle-late=3000').expect(504);
    const id = res.headers['x-request-id'] as string;
    expect(slow.logs.failures(id)).toMatchObject([{ status: 504, error: { type: 'LoaderTimeoutError' } }]);
    // The loader returns at 3 s, well after the 504 left at 1.2 s: let everything it could set off run.
    await fixture.late.loader;
    await new Promise((resolve) => setImmediate(resolve));
    expect(slow.logs.failures(id)).toHaveLength(1);
    expect(slow.logs.failureCount()).toBe(1);
  });

  it('gives a crawler the whole page, its late section client-rendered, with one failure line', async () => {
    const slow = createTestApp({ STREAM_TIMEOUT_MS: '200' });
    const res = await request(slow.app).get('/fixture/ada?hold=10000&ignore-signal').set('user-agent', CRAWLER_UA).expect(200);
    expect(res.text).toContain('Hello from the fixture, ada');
    expect(res.text).not.toContain('LATER-PART-ARRIVED');
    expect(slow.logs.failures(res.headers['x-request-id'] as string)).toMatchObject([{ error: { type: 'StreamTimeoutError' } }]);
  });
});
