import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createBareApp, createTestApp, DIAG } from '../support/test-app.ts';

const MAX_LINE_BYTES = 8 * 1024;
const MB = 1024 * 1024;
const frames = (count: number, width = 120) =>
  Array.from({ length: count }, (_, i) => `    at fn${i} (/app/${'d'.repeat(width)}.js:${i}:1)`).join('\n');

/** A server whose one route throws `make()`, with the real failure recorder and error handler. */
async function failWith(make: () => unknown) {
  const { app, logs } = createBareApp('huge-failure-1', () => {
    throw make();
  });
  const res = await request(app).get('/').set('accept', 'application/json').expect(500);
  const index = logs.lines.findIndex((line) => line.error !== undefined);
  return { digest: res.body.error.digest as string, line: logs.lines[index]!, raw: logs.raw[index]! };
}

describe('the failure line is complete but at most 8 KB, whatever was thrown', () => {
  it('a 1 MB message and a 10,000-frame stack', async () => {
    const { digest, line, raw } = await failWith(() => {
      const error = new Error('m'.repeat(MB));
      error.stack = `Error: ${'m'.repeat(MB)}\n${frames(10_000)}`;
      return error;
    });
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(line).toMatchObject({ level: 50, digest, reqId: 'huge-failure-1', status: 500, path: '/', error: { type: 'Error' } });
    const error = line.error as { message: string; stack: string };
    expect(error.message).toMatch(/^m{256}/);
    expect(error.stack).toMatch(/^Error: m+…?\n {4}at fn0 /);
    expect(error.stack).toMatch(/… \d+ more frames$/);
  });

  it('five causes with 50 long frames each, in characters JSON escapes to six bytes', async () => {
    const { digest, line, raw } = await failWith(() => {
      let error: Error | undefined;
      for (let depth = 5; depth >= 0; depth--) {
        error = new Error(`\u0001${'\u0002'.repeat(2_000)} depth ${depth}`, { cause: error });
        error.stack = `Error: depth ${depth}\n${frames(50, 1_500)}`;
      }
      return error;
    });
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(MAX_LINE_BYTES);
    // eslint-disable-next-line no-control-regex -- the thrown message is made of control characters
    const controls = /^\u0001\u0002+/;
    expect(line).toMatchObject({ digest, reqId: 'huge-failure-1', error: { type: 'Error', message: expect.stringMatching(controls) } });
  });

  it('a thrown value that is no Error at all, a megabyte long', async () => {
    const { digest, raw } = await failWith(() => '\u0003'.repeat(MB));
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(raw).toContain(digest);
  });

  it('a browser report as large as the endpoint accepts', async () => {
    const { app, logs } = createTestApp();
    const report = {
      kind: 'uncaught',
      digest: 'c-1a2b3c4d5e6f',
      type: 'T'.repeat(256),
      message: '\u0001'.repeat(1_024),
      stack: `Error\n${frames(60, 1_000)}`.slice(0, 7_000),
      path: `/${'\u0002'.repeat(200)}`,
    };
    // Within the 16 KiB body limit, yet well over 8 KB once JSON escapes the control characters.
    expect(JSON.stringify(report).length).toBeLessThan(16 * 1024);
    await request(app).post('/api/client-errors').send(report).expect(204);
    const index = logs.lines.findIndex((line) => line.msg === 'client error');
    expect(Buffer.byteLength(logs.raw[index]!)).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(logs.lines[index]).toMatchObject({ side: 'client', digest: report.digest, kind: 'uncaught' });
  });

  it('an ordinary failure line is written whole: every frame V8 kept', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/_diag/server-error').set(DIAG).expect(500);
    const [failure] = logs.failures(res.headers['x-request-id']);
    const stack = (failure!.error as { stack: string }).stack;
    expect(stack.split('\n').filter((text) => text.startsWith('    at '))).toHaveLength(Error.stackTraceLimit);
    expect(stack).not.toContain('more frames');
  });
});
