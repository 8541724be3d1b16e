import { describe, expect, it } from 'vitest';
import { createRenderer } from '../client/entry-server.tsx';
import { routes } from '../client/routes.tsx';
import { fetchOnce } from '../tools/harness/http.ts';
import { BROWSER_UA } from '../tools/harness/user-agents.ts';
import { fixture } from './fixtures/fixture-route.ts';
import { createTestApp } from './support/test-app.ts';

describe('a page past its stream timeout', () => {
  it('streams the failure of a value its loader gave up on, with the digest it logged once', async () => {
    const slow = createTestApp({ STREAM_TIMEOUT_MS: '300' }, {}, createRenderer([...routes, fixture]));
    await slow.listen();
    try {
      const res = await fetchOnce(`${slow.url}/fixture/ada?hold=20000`, { headers: { 'user-agent': BROWSER_UA } });
      const failure = /"id":"fixture:later","failure":\{"routeFailure":true,"status":500,"digest":"([\w-]+)"\}/.exec(res.body);
      expect(failure).not.toBeNull();
      const lines = slow.logs.failures(res.headers['x-request-id'] as string);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ digest: failure![1], error: { type: 'StreamTimeoutError' } });
    } finally {
      await slow.close();
    }
  });
});
