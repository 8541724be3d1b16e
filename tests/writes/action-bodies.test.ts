import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMITS } from '../../server/config/body-limits.ts';
import { createTestApp, listeningTestApp } from '../support/test-app.ts';

// What an action may be sent, hostile and odd: every refusal is a 4xx that says why, no failure
// line, and the action never runs (the fixture app's writes routes echo what they got:
// tests/apps/host/app/writes.server.ts). A multipart upload is the exception: it streams to the
// action, so what is wrong with it is found as the action reads it, by the host's upload helper
// or by the Fetch API's formData(), and answered the same way.
// Declared and streamed sizes over the cap are in body-limit.test.ts.

const app = () => createTestApp();
const ACTION = '/api/writes';
const { maxBytes, maxFields, maxFiles } = DEFAULT_BODY_LIMITS;

function multipartBody(boundary: string, parts: string[]): string {
  return `${parts.map((part) => `--${boundary}\r\n${part}`).join('\r\n')}\r\n--${boundary}--\r\n`;
}
const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
const file = (name: string, filename: string, content: string) =>
  `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${content}`;

describe('action bodies', () => {
  const served = listeningTestApp();
  // A form of 1,000 fields is over the cap, whatever its encoding.
  expect(maxFields).toBeLessThan(1_000);
  it('reads multipart fields and files, repeated names kept', async () => {
    const body = multipartBody('b0undary', [field('a', 'one'), field('a', 'two'), file('upload', 'notes.txt', 'hello')]);
    const res = await request(app().app).post(ACTION).set('Content-Type', 'multipart/form-data; boundary=b0undary').send(body).expect(200);
    expect(res.body).toEqual({
      body: [
        ['a', 'one'],
        ['a', 'two'],
        ['upload', { file: 'notes.txt', type: 'text/plain', size: 5 }],
      ],
    });
  });

  it.each([
    ['a form of 1,000 fields', 'application/x-www-form-urlencoded', Array.from({ length: 1_000 }, (_, i) => `f${i}=x`).join('&'), 413],
    ['percent-encoded bytes that are not UTF-8', 'application/x-www-form-urlencoded', 'name=%C3%28', 400],
    ['a broken percent escape', 'application/x-www-form-urlencoded', 'name=%E0%A4%A', 400],
    ['raw bytes that are not UTF-8', 'application/x-www-form-urlencoded', Buffer.from([0x6e, 0x3d, 0xff, 0xfe]), 400],
    ['JSON that does not parse', 'application/json', '{"a":', 400],
    ['JSON that is not UTF-8', 'application/json', Buffer.from([0x22, 0xc3, 0x28, 0x22]), 400],
    ['an unknown content type', 'text/csv', 'a,b', 415],
    ['a body with no content type', '', 'name=x', 415],
    ['multipart without a boundary', 'multipart/form-data', 'x', 400],
  ])('%s: refused with a clear 4xx, no failure, the action never runs', async (_name, type, body, status) => {
    // fetch sends the bytes and the type as given (a client library would re-encode or add a type).
    const res = await fetch(`${served.url}${ACTION}`, { method: 'POST', headers: type === '' ? {} : { 'Content-Type': type }, body });
    expect(res.status).toBe(status);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ error: { status } });
    expect(text).not.toMatch(/\n\s+at |"body"/);
    expect(served.logs.failureCount()).toBe(0);
  });

  // `parse`: the host's helper (context.parseForm); `formData`: the action's own request.formData().
  it.each([
    ['cut before its end', `--zz\r\n${field('a', 'b')}`, 400, ['parse', 'formData']],
    // The helper skips these parts (busboy does); the Fetch API's parser throws on them.
    ['with a part without Content-Disposition', '--zz\r\nContent-Type: text/plain\r\n\r\nx\r\n--zz--\r\n', 400, ['formData']],
    ['with a part without a name', '--zz\r\nContent-Disposition: form-data\r\n\r\nx\r\n--zz--\r\n', 400, ['formData']],
    // Counts are the helper's: formData() holds the body in memory, bounded by the whole cap alone.
    [
      'of 1,000 fields',
      multipartBody(
        'zz',
        Array.from({ length: 1_000 }, (_, i) => field(`f${i}`, 'x')),
      ),
      413,
      ['parse'],
    ],
    [
      'with too many files',
      multipartBody(
        'zz',
        Array.from({ length: maxFiles + 1 }, (_, i) => file(`f${i}`, `${i}.txt`, 'x')),
      ),
      413,
      ['parse'],
    ],
    ['with a field over its limit', multipartBody('zz', [field('a', 'x'.repeat(DEFAULT_BODY_LIMITS.maxFieldBytes + 1))]), 413, ['parse']],
    // A file over its own limit is not refused: the helper marks it (tests/writes/upload-limits.test.ts).
    [
      "with a file past the whole body's cap",
      multipartBody('zz', [file('f', 'big.txt', 'x'.repeat(maxBytes + 1))]),
      413,
      ['parse', 'formData'],
    ],
  ] as const)('multipart %s: refused as the action reads it, with a clear 4xx and no failure', async (_name, body, status, readers) => {
    for (const reader of readers) {
      const res = await fetch(`${served.url}${ACTION}${reader === 'parse' ? '?do=parse' : ''}`, {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=zz' },
        body,
      });
      expect([reader, res.status]).toEqual([reader, status]);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ error: { status } });
      expect(text).not.toMatch(/\n\s+at |"body"/);
      expect(served.logs.failureCount()).toBe(0);
    }
  });

  it.each([
    ['JSON arrays nested 20,000 deep', 'application/json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['JSON objects nested 5,000 deep', 'application/json', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`],
    ['a urlencoded form', 'application/x-www-form-urlencoded; charset=UTF-8', 'name=J%C3%BCrgen+M&message=a%26b%3Dc&name=again'],
    ['multipart', 'multipart/form-data; boundary=b0undary', multipartBody('b0undary', [field('a', 'one'), file('f', 'x.txt', 'hi')])],
  ])('%s under the cap reaches the action as the client sent it: its type and its bytes', async (_name, type, body) => {
    const res = await fetch(`${served.url}${ACTION}?do=raw`, { method: 'POST', headers: { 'Content-Type': type }, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type, text: body });
    expect(served.logs.failureCount()).toBe(0);
  });

  it('an empty post with no content type is an empty form (a bare button)', async () => {
    const res = await request(app().app).post(ACTION).expect(200);
    expect(res.body).toEqual({ body: [] });
  });
});
