import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, parseResponse } from '../support/raw-http.ts';
import { appBuild, createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

// Route discovery is React Router's (its lazy `/__manifest?paths=…&version=…`: the browser asks
// for the routes of the links it meets). What the host guarantees around it: a hostile or huge
// request is a clear 4xx and never a 500, and diagnostic routes are named only to a request
// carrying the token, in an answer no cache keeps.

describe('route discovery', () => {
  let host: TestApp;
  const version = appBuild().serverBuild.assets.version;
  const manifest = (paths: string) => request(host.app).get(`/__manifest?paths=${encodeURIComponent(paths)}&version=${version}`);

  beforeAll(() => {
    host = createTestApp();
  });

  it("answers a page's path with its branch, for the life of the release", async () => {
    const res = await manifest('/fixture/ada,/board').expect(200);
    expect(Object.keys(res.body as object).sort()).toEqual(['root', 'routes/board', 'routes/fixture', 'routes/site']);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('names no diagnostic route without the token, and none a cache may keep with it', async () => {
    const without = await manifest('/_diag/slow,/fixture/ada').expect(200);
    expect(Object.keys(without.body as object).filter((id) => id.startsWith('diag'))).toEqual([]);
    expect(without.body).toHaveProperty(['routes/fixture']);
    expect(without.headers['cache-control']).toBe('no-store');
    const withToken = await manifest('/_diag/slow').set(DIAG).expect(200);
    expect(Object.keys(withToken.body as object)).toEqual(expect.arrayContaining(['diag', 'diag/slow']));
    expect(withToken.headers['cache-control']).toBe('no-store');
  });

  it('tells a page of another release to load the document again', async () => {
    const res = await request(host.app).get('/__manifest?paths=/board&version=another').expect(204);
    expect(res.headers['x-remix-reload-document']).toBe('true');
  });

  it.each([
    ['no paths', `/__manifest?version=VERSION`],
    ['a query over 7,680 characters', `/__manifest?version=VERSION&paths=${Array.from({ length: 1_500 }, (_, i) => `/p${i}`).join(',')}`],
  ])('refuses %s with a 400, logged as no failure', async (_case, path) => {
    const res = await request(host.app).get(path.replace('VERSION', version)).expect(400);
    expect(res.text).not.toMatch(/at .*\.ts|node_modules/);
    expect(host.logs.failures(res.headers['x-request-id'] as string)).toEqual([]);
  });

  it('answers broken percent-encoding and control characters without a failure', async () => {
    for (const paths of ['/%zz', '/%00%1b%7f', '//evil.example']) {
      const res = await request(host.app).get(`/__manifest?version=${version}&paths=${paths}`);
      expect(res.status, paths).toBeLessThan(500);
    }
    expect(host.logs.failureCount()).toBe(0);
  });

  describe('over a real socket', () => {
    let url: string;
    beforeAll(async () => {
      url = await host.listen();
    });
    afterAll(() => host.close());

    it('bounds a request by the header limit: a 431, logged as any refusal', async () => {
      const raw = await exchange(
        url,
        `GET /__manifest?version=${version}&paths=/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(parseResponse(raw).status).toBe(431);
    });
  });
});
