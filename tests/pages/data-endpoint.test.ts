// Class: what a client names on the data endpoint. HEAD answers as GET would, without a body;
// route ids that do not exist, or that the URL does not match, are a 400 that says so.
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

describe('the data endpoint', () => {
  let host: TestApp;
  beforeAll(() => {
    host = createTestApp();
  });

  it.each([
    '/_data/guide/streaming?_routes=site,guide',
    '/_data/?_routes=site,home',
    '/_data/guide?_routes=guide',
    '/_data/no-such-page?_routes=site',
    '/_data/guide/streaming?_routes=nope',
  ])('answers HEAD %s with the status and headers GET has, and no body', async (path) => {
    const get = await request(host.app).get(path);
    const head = await request(host.app).head(path);
    expect(head.status).toBe(get.status);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['cache-control']).toBe(get.headers['cache-control']);
    expect(head.text ?? '').toBe('');
  });

  const unmatched: [path: string, ids: string][] = [
    ['/_data/guide/streaming?_routes=nope', 'nope'],
    ['/_data/guide/streaming?_routes=site,home', 'home'],
    ['/_data/guide/streaming?_routes=site,guide,diag-slow', 'diag-slow'],
    ['/_data/?_routes=guide', 'guide'],
    ['/_data/?_routes=site,home,x1,x2', 'x1,x2'],
    ['/_data/guide?_routes=__host,zzz', 'zzz'],
  ];
  it.each(unmatched)('refuses %s with a 400 naming %s', async (path, ids) => {
    const res = await request(host.app).get(path).expect(400);
    expect(res.body.error.message).toBe(`_routes names routes that do not exist or that this URL does not match: ${ids}`);
    expect(host.logs.access(res.headers['x-request-id'] as string)).toMatchObject({ status: 400, reason: res.body.error.message });
  });

  it('bounds what it echoes of a long list of unknown ids', async () => {
    const ids = Array.from({ length: 16 }, (_, i) => `unknown-route-${i}-${'x'.repeat(40)}`).join(',');
    const res = await request(host.app).get(`/_data/guide?_routes=${ids}`).expect(400);
    expect(res.body.error.message.length).toBeLessThan(300);
  });

  it('still serves every matched id, diagnostics only with the token', async () => {
    await request(host.app).get('/_data/guide/streaming?_routes=site,guide').expect(200);
    await request(host.app).get('/_data/_diag/slow?_routes=diag,diag-slow').set(DIAG).expect(200);
    await request(host.app).get('/_data/_diag/slow?_routes=diag,diag-slow').expect(404);
    expect(host.logs.failureCount()).toBe(0);
  });
});
