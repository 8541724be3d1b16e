// Class: a page's navigation data, React Router's single fetch (`/fixture/ada.data`, `/_.data`
// for `/`) through the host. HEAD answers as GET would, without a body; a failure carries its
// digest and no stack; the cache rules are a page's; another spelling of the page is a 308.
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

describe("a page's navigation data", () => {
  let host: TestApp;
  beforeAll(() => {
    host = createTestApp();
  });

  it.each(['/fixture/ada.data', '/_.data', '/no-such-page.data', '/fixture/ada.data?missing'])(
    'answers HEAD %s with the status and headers GET has, and no body',
    async (path) => {
      const get = await request(host.app).get(path);
      const head = await request(host.app).head(path);
      expect(head.status).toBe(get.status);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['cache-control']).toBe(get.headers['cache-control']);
      expect(head.text ?? '').toBe('');
    },
  );

  it("is a page's to keep: the browser may store it and asks again; one visitor's or a failure is kept nowhere", async () => {
    const res = await request(host.app).get('/fixture/ada.data').expect(200);
    expect(res.headers['content-type']).toBe('text/x-script');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.text).toContain('Hello from the fixture, ada');
    expect((await request(host.app).get('/fixture/ada.data?missing').expect(404)).headers['cache-control']).toBe('no-store');
    expect(host.logs.failureCount()).toBe(0);
  });

  it('carries the digest of the one line a failed loader logged, and no stack', async () => {
    const res = await request(host.app).get('/_diag/loader-error.data').set(DIAG).expect(500);
    const [line, ...others] = host.logs.failures(String(res.headers['x-request-id']));
    expect(others).toEqual([]);
    expect(line).toMatchObject({ status: 500, route: 'data:diag/loader-error', digest: expect.any(String) });
    expect(res.text).toContain(`"digest","${line!.digest as string}"`);
    expect(res.text).not.toContain('Diagnostic loader error');
    expect(res.text).not.toMatch(/at .*\.tsx?|node_modules/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['/Fixture/ada.data', '/fixture/ada.data'],
    ['/fixture/ada/_.data', '/fixture/ada.data'],
    ['/%66ixture/ada.data?x=1', '/fixture/ada.data?x=1'],
  ])("redirects %s to the page's own spelling, %s, with a 308", async (path, location) => {
    const res = await request(host.app).get(path).expect(308);
    expect(res.headers.location).toBe(location);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('serves diagnostics only with the token: without it, a 404 and no failure', async () => {
    await request(host.app).get('/_diag/slow.data').set(DIAG).expect(200);
    await request(host.app).get('/_diag/slow.data').expect(404);
    expect(host.logs.failures().filter((line) => line.route !== 'data:diag/loader-error')).toEqual([]);
  });
});
