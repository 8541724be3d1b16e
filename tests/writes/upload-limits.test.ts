import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMITS } from '../../server/config/body-limits.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { collect, openSocket, parseResponse } from '../support/raw-http.ts';
import { DIAG, listeningTestApp } from '../support/test-app.ts';

// The limits of an action's body: configuration, a route's own (the fixture app's
// tests/apps/host/app/routes/writes-limited.ts: 2 MiB whole, 1 KiB a file, 3 fields), and a file
// over its limit marked by the upload helper (context.parseForm: server/writes/form-uploads.ts)
// instead of refused, so the page keeps what was typed. Refusals are in action-bodies.test.ts and
// body-limit.test.ts; memory and disk in streamed-uploads.test.ts.

const KIB = 1_024;
const MIB = 1_048_576;
const { maxFileBytes } = DEFAULT_BODY_LIMITS;

function multipart(parts: [name: string, value: string | { filename: string; content: string }][]) {
  const boundary = 'upl0ad';
  const body = parts
    .map(([name, value]) =>
      typeof value === 'string'
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: text/plain\r\n\r\n${value.content}`,
    )
    .join('\r\n');
  return { type: `multipart/form-data; boundary=${boundary}`, body: `${body}\r\n--${boundary}--\r\n` };
}

const post = (url: string, { type, body }: { type: string; body: string }, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': type, ...headers }, body });

describe('upload limits', () => {
  const host = listeningTestApp();

  it('a file over the per-file limit reaches the action marked, with the text fields before and after it', async () => {
    const form = multipart([
      ['title', 'What I typed'],
      ['report', { filename: 'big.txt', content: 'x'.repeat(maxFileBytes + 1) }],
      ['body', 'and what I typed after it'],
      ['notes', { filename: 'small.txt', content: 'hello' }],
    ]);
    const res = await post(`${host.url}/api/writes?do=parse`, form);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      fields: [
        ['title', 'What I typed'],
        ['body', 'and what I typed after it'],
      ],
      files: [{ name: 'notes', filename: 'small.txt', size: 5 }],
      tooLarge: [{ name: 'report', filename: 'big.txt', size: maxFileBytes + 1, limit: maxFileBytes }],
    });
    expect(host.logs.failureCount()).toBe(0);
  });

  it("a route's own file limit marks a file the host's default would keep", async () => {
    const form = multipart([['f', { filename: 'two-k.txt', content: 'x'.repeat(2 * KIB) }]]);
    const res = await post(`${host.url}/api/writes/limited?do=parse`, form);
    expect(await res.json()).toMatchObject({ files: [], tooLarge: [{ filename: 'two-k.txt', size: 2 * KIB, limit: KIB }] });
  });

  it("a route's own whole-body cap takes a body over the host's default", async () => {
    // 1.5 MiB: over BODY_MAX_BYTES's default (1 MiB), under the route's 2 MiB.
    const form = multipart([['f', { filename: 'large.txt', content: 'x'.repeat(1.5 * MIB) }]]);
    const res = await post(`${host.url}/api/writes/limited?do=parse`, form);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ tooLarge: [{ filename: 'large.txt', size: 1.5 * MIB, limit: KIB }] });
    expect((await post(`${host.url}/api/writes?do=parse`, form)).status).toBe(413);
  });

  it("a route's own lower field count is a 413, the action never runs", async () => {
    const res = await post(`${host.url}/api/writes/limited`, {
      type: 'application/x-www-form-urlencoded',
      body: 'a=1&b=2&c=3&d=4',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { status: 413 } });
  });

  it("a body declared over the route's cap is refused at once, before a byte of it is read", async () => {
    const socket = await openSocket(host.url);
    const answered = collect(socket);
    const headers = ['Host: 127.0.0.1', 'Content-Type: multipart/form-data; boundary=zz', `Content-Length: ${2 * MIB + 1}`];
    socket.write(`POST /api/writes/limited HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
    // Resolves only when the server closes the connection, the body never sent.
    const res = parseResponse(await answered);
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(res.body).toContain(`at most ${2 * MIB} bytes`);
  });

  it('limits past the host ceiling are the route’s bug: one 500 with a digest naming it', async () => {
    const res = await post(`${host.url}/api/writes/bad-limits`, { type: 'application/x-www-form-urlencoded', body: 'a=1' });
    expect(res.status).toBe(500);
    const reqId = res.headers.get('x-request-id')!;
    const [failure, ...more] = host.logs.failures(reqId);
    expect(more).toEqual([]);
    expect(failure).toMatchObject({
      digest: expect.any(String),
      error: { message: expect.stringContaining('Route "routes/writes-bad-limits" exports bodyLimits with maxBytes=1000000000') },
    });
    expect(await res.text()).not.toContain('bodyLimits');
  });

  it('the upload helper refuses a body that is not a form with a 400', async () => {
    const res = await post(`${host.url}/api/writes?do=parse`, { type: 'application/json', body: '{}' });
    expect(res.status).toBe(400);
    expect(host.logs.failures(res.headers.get('x-request-id')!)).toEqual([]);
  });
});

describe('upload limits from the environment', () => {
  const host = listeningTestApp({ BODY_MAX_BYTES: String(8 * KIB), BODY_MAX_FILE_BYTES: String(KIB) });

  it('BODY_MAX_FILE_BYTES is the limit a file is marked at; BODY_MAX_BYTES the whole body’s 413', async () => {
    const small = multipart([['f', { filename: 'a.txt', content: 'x'.repeat(KIB + 1) }]]);
    expect(await (await post(`${host.url}/api/writes?do=parse`, small)).json()).toMatchObject({
      tooLarge: [{ size: KIB + 1, limit: KIB }],
    });
    const large = multipart([['f', { filename: 'b.txt', content: 'x'.repeat(8 * KIB) }]]);
    const res = await post(`${host.url}/api/writes?do=parse`, large);
    expect(res.status).toBe(413);
    await host.logs.waitFor((line) => line.reqId === res.headers.get('x-request-id') && isAccessLine(line));
  });
});

describe('the upload diagnostic without JavaScript', () => {
  const host = listeningTestApp();

  it('a file over the route’s 64 KB answers 422 with the typed title and the field error', async () => {
    const form = multipart([
      ['title', 'Quarterly report'],
      ['attachment', { filename: 'report.txt', content: 'x'.repeat(100 * KIB) }],
    ]);
    const res = await request(host.app).post('/_diag/upload').set(DIAG).set('Content-Type', form.type).send(form.body);
    expect(res.status).toBe(422);
    expect(res.text).toContain('value="Quarterly report"');
    expect(res.text).toContain('report.txt is 100 KB: a file may be at most 64 KB.');
    expect(host.logs.failureCount()).toBe(0);
  });

  it('a file within it is received', async () => {
    const form = multipart([
      ['title', 'Notes'],
      ['attachment', { filename: 'notes.txt', content: 'hello' }],
    ]);
    const res = await request(host.app).post('/_diag/upload').set(DIAG).set('Content-Type', form.type).send(form.body).expect(200);
    // React separates a text's parts with comments.
    expect(res.text.replaceAll('<!-- -->', '')).toContain('Received “Notes” with notes.txt (5 bytes).');
  });
});
