// Expected failures (4xx) and what happens once headers are sent: split from errors.test.tsx.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pageDigest } from '../../tools/harness/digests.ts';
import { LEVEL } from '../../shared/log-line.ts';
import { createBareApp, createTestApp, DIAG } from '../support/test-app.ts';

function requestId(res: { headers: Record<string, unknown> }): string {
  return res.headers['x-request-id'] as string;
}

describe('expected failures get their 4xx, never a 500', () => {
  it('an unknown page renders the React not-found page with 404, no digest, logged at info', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/no-such-page').expect(404);
    expect(res.text).toContain('This page could not be found.');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(pageDigest(res.text)).toBeUndefined();
    // One line: its access line, at info, without a digest; a 404 gets no failure line.
    expect(logs.forRequest(requestId(res))).toEqual([
      expect.objectContaining({ level: LEVEL.info, status: 404, msg: 'request completed' }),
    ]);
    expect(logs.access(requestId(res))!.digest).toBeUndefined();
  });

  it('an unknown JSON path gets a JSON 404', async () => {
    const { app } = createTestApp();
    const res = await request(app).get('/api/nothing-here').expect(404);
    expect(res.body).toEqual({ error: { status: 404, message: 'This page could not be found.' } });
  });

  it('malformed percent-encoding in the path is a 400, its reason on the access line alone', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/%E0%A4%A').expect(400);
    expect(res.text).toContain('Malformed URL');
    expect(logs.forRequest(requestId(res))).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        status: 400,
        reason: 'Malformed URL: invalid percent-encoding',
        msg: 'request completed',
      }),
    ]);
  });

  it('an unsupported method on a page is a 405 with Allow', async () => {
    const { app } = createTestApp();
    const res = await request(app).post('/').send('x=1').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('diagnostic routes are plain 404s without the token, or when none is configured', async () => {
    await request(createTestApp().app).get('/_diag/server-error').set('x-diagnostics-token', 'wrong-token-0123456789').expect(404);
    await request(createTestApp().app).get('/_diag/server-error').expect(404);
    await request(createTestApp({ DIAGNOSTICS_TOKEN: '' }).app)
      .get('/_diag/server-error')
      .set(DIAG)
      .expect(404);
  });

  it('the slow diagnostic page rejects a delay that is not a number', async () => {
    await request(createTestApp().app).get('/_diag/slow?ms=abc').set(DIAG).expect(400);
  });
});

describe('after headers are sent', () => {
  it('an error outside React is logged once and the socket is cut, never a second page', async () => {
    const { app, logs } = createBareApp('after-headers-1', (_req, res, next) => {
      // The failure comes once the first page's bytes have left: they are on the wire to see.
      res
        .status(200)
        .type('html')
        .write('<p>first page', () => next(new Error('failed after the headers were sent')));
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      // The raw bytes, as a proxy sees them: one response, and no end to its chunked body, so
      // nothing downstream can take the cut page for a whole one.
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      socket.end('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      await once(socket, 'close');
      const wire = Buffer.concat(chunks).toString('latin1');
      expect(wire.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200']);
      expect(wire).toContain('<p>first page');
      expect(wire).not.toContain('Application error');
      expect(wire).not.toMatch(/\r\n0\r\n\r\n$/);
    } finally {
      server.close();
    }
    expect(logs.failures('after-headers-1')).toHaveLength(1);
    expect(logs.failures('after-headers-1')[0]).toMatchObject({ headersSent: true, status: 500 });
  });
});
