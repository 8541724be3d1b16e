// The shared assets directory (SHARED_ASSETS_DIR) serves regular files directly in it and nothing
// else: a symlink (to a file outside, to a file inside, to a directory, dangling, a loop), a path
// through a symlinked or real subfolder, a dotfile, a FIFO, and every encoding of a way out of
// the directory get the same 404 as an asset nobody published (server/assets/shared-assets.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProdFrontend } from '../../server/assets/frontend.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { appBuild, createTestApp, type TestApp } from '../support/test-app.ts';

const SECRET = 'SECRET-OUTSIDE-THE-ASSETS-DIRECTORY';
const INSIDE = 'console.log("a published asset");';
const GOOD = 'entry-client-GoOd1234.js';
const UNKNOWN = 'entry-client-NeVeR000.js';

let root = '';
let dir = '';
let host: TestApp;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'shared-assets-confinement-'));
  dir = join(root, 'assets');
  const outside = join(root, 'outside');
  mkdirSync(dir);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.js'), SECRET);
  writeFileSync(join(root, 'secret.js'), SECRET);
  writeFileSync(join(dir, GOOD), INSIDE);
  symlinkSync(join(outside, 'secret.js'), join(dir, 'link-outside-AaAa1111.js'));
  symlinkSync('../secret.js', join(dir, 'link-relative-BbBb2222.js'));
  symlinkSync(join(dir, GOOD), join(dir, 'link-inside-CcCc3333.js'));
  symlinkSync(GOOD, join(dir, 'link-inside-relative-DdDd4444.js'));
  symlinkSync(outside, join(dir, 'linkdir'));
  symlinkSync(join(dir, 'no-such-file.js'), join(dir, 'dangling-EeEe5555.js'));
  symlinkSync('loop-FfFf6666.js', join(dir, 'loop-FfFf6666.js'));
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'nested-GgGg7777.js'), SECRET);
  for (const name of ['.env', '.hidden-HhHh8888.js', '.entry-client-HaLf4567.js.99.partial', '.git'])
    writeFileSync(join(dir, name), SECRET);
  spawnSync('mkfifo', [join(dir, 'fifo-IiIi9999.js')]);
  host = createTestApp({}, { frontend: createProdFrontend(appBuild(), dir) });
  await host.listen();
});

afterAll(async () => {
  await host?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The path exactly as written: no URL parser normalises `..` or `%2e%2e` on the way. */
function raw(path: string, method = 'GET'): Promise<Answer> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A 404 page, without what differs per request (its request id and CSP nonce). */
const shape = (answer: Answer) => ({
  status: answer.status,
  type: answer.headers['content-type'],
  cacheControl: answer.headers['cache-control'],
  body: answer.body.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'ID').replace(/nonce="[^"]*"/g, 'nonce'),
});

const NOT_FILES = [
  'link-outside-AaAa1111.js',
  'link-relative-BbBb2222.js',
  'link-inside-CcCc3333.js',
  'link-inside-relative-DdDd4444.js',
  'linkdir',
  'linkdir/secret.js',
  'linkdir/',
  'dangling-EeEe5555.js',
  'loop-FfFf6666.js',
  'sub',
  'sub/',
  'sub/nested-GgGg7777.js',
  'sub%2fnested-GgGg7777.js',
  'sub%2Fnested-GgGg7777.js',
  'sub\\nested-GgGg7777.js',
  'sub%5cnested-GgGg7777.js',
  '.env',
  '.hidden-HhHh8888.js',
  '.entry-client-HaLf4567.js.99.partial',
  '.git',
  '%2eenv',
  '%2Ehidden-HhHh8888.js',
  'fifo-IiIi9999.js',
];
const TRAVERSALS = [
  '../secret.js',
  '..%2fsecret.js',
  '..%2Fsecret.js',
  '%2e%2e/secret.js',
  '%2e%2e%2fsecret.js',
  '%2E%2E%2Fsecret.js',
  '.%2e/secret.js',
  '%2e./secret.js',
  '..\\secret.js',
  '..%5csecret.js',
  '%2e%2e%5csecret.js',
  '%252e%252e%252fsecret.js',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2fetc%2fpasswd',
  '....//secret.js',
  'linkdir%2fsecret.js',
  '%00',
  `${GOOD}%00`,
  `${GOOD}%00.png`,
  '%00/../secret.js',
  `${GOOD}/`,
  `${GOOD}/..`,
  `${GOOD}%2f..%2f..%2fsecret.js`,
  'a'.repeat(300),
];

/** Percent-encoding that is not UTF-8: the app's 400 for any malformed URL, before any file. */
const MALFORMED = ['%c0%ae%c0%ae/secret.js', '%ff', `${GOOD}%`, '%2', '%e0%80%af'];

describe('the shared assets directory serves regular files directly in it, and nothing else', () => {
  it('serves a published file, immutable, with GET and HEAD', async () => {
    const get = await raw(`/assets/${GOOD}`);
    expect(get).toMatchObject({ status: 200, body: INSIDE });
    expect(get.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(get.headers['content-type']).toMatch(/^text\/javascript/);
    expect(get.headers['content-length']).toBe(String(INSIDE.length));
    const head = await raw(`/assets/${GOOD}`, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe(String(INSIDE.length));
  });

  it.each([...NOT_FILES, ...TRAVERSALS].map((path) => [path]))('/assets/%s is the 404 of an unknown asset', async (path) => {
    const unknown = shape(await raw(`/assets/${UNKNOWN}`));
    expect(unknown.status).toBe(404);
    const answer = await raw(`/assets/${path}`);
    expect(answer.body).not.toContain(SECRET);
    expect(shape(answer)).toEqual(unknown);
    // One access line, a 4xx like any other: no failure, no digest.
    const id = String(answer.headers['x-request-id']);
    await host.logs.waitFor((line) => isAccessLine(line) && line.reqId === id);
    expect(host.logs.forRequest(id)).toMatchObject([{ status: 404 }]);
    expect(host.logs.forRequest(id)[0]).not.toHaveProperty('digest');
  });

  it.each(MALFORMED.map((path) => [path]))('/assets/%s is the 400 of a malformed URL', async (path) => {
    const answer = await raw(`/assets/${path}`);
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain(SECRET);
    expect(answer.body).toContain('Malformed URL');
  });

  it('lets no symlink through while one is swapped with a regular file under it', async () => {
    // Another process flips the name between a regular file and a symlink to the secret, as
    // fast as it can, each by an atomic rename; every answer must be the file or the 404.
    const FLIPPING = 'flip-JjJj0000.js';
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const [dir, secret, content] = process.argv.slice(1);
         const target = dir + '/${FLIPPING}';
         for (let i = 0; ; i++) {
           fs.symlinkSync(secret, dir + '/.l'); fs.renameSync(dir + '/.l', target);
           fs.writeFileSync(dir + '/.f', content); fs.renameSync(dir + '/.f', target);
           if (i === 0) process.stdout.write('flipping\\n');
         }`,
        dir,
        join(root, 'secret.js'),
        INSIDE,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(flipper.stdout, 'data');
      const seen = new Map<string, number>();
      for (let batch = 0; batch < 40; batch++) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => raw(`/assets/${FLIPPING}`)));
        for (const answer of answers) {
          expect(answer.body).not.toContain(SECRET);
          expect([200, 404]).toContain(answer.status);
          if (answer.status === 200) expect(answer.body).toBe(INSIDE);
          seen.set(String(answer.status), (seen.get(String(answer.status)) ?? 0) + 1);
        }
      }
      console.log(`a name flipped between a file and a symlink: ${JSON.stringify(Object.fromEntries(seen))} of 400 answers`);
    } finally {
      flipper.kill('SIGKILL');
    }
  });
});
