// A request that names the assets folder rather than a file: `/assets` itself is a 301 to
// `/assets/` that carries Cache-Control (server/assets/frontend.ts says why), and every path that
// resolves to a folder is the 404 of an unknown asset, never a redirect to it. With and without
// a shared assets directory (server/assets/shared-assets.ts).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProdFrontend } from '../../server/assets/frontend.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { appBuild, clientDir, createTestApp, type TestApp } from '../support/test-app.ts';

/** A file of this build: the folder tricks below start from a real name. */
const OWN = readdirSync(join(clientDir(), 'assets')).find((name) => name.endsWith('.js'))!;

const SETUPS = ['the build only', 'a shared directory'] as const;
let shared = '';
const hosts: Partial<Record<(typeof SETUPS)[number], TestApp>> = {};

beforeAll(async () => {
  shared = mkdtempSync(join(tmpdir(), 'assets-folder-'));
  mkdirSync(join(shared, 'sub'));
  writeFileSync(join(shared, 'other-release-AbCd1234.js'), 'console.log(1);');
  hosts['the build only'] = createTestApp();
  hosts['a shared directory'] = createTestApp({}, { frontend: createProdFrontend(appBuild(), shared) });
  for (const host of Object.values(hosts)) await host.listen();
});

afterAll(async () => {
  for (const host of Object.values(hosts)) await host?.close();
  rmSync(shared, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The path as written, unnormalised. */
function raw(host: TestApp, path: string, method = 'GET'): Promise<Answer> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const FOLDER = ['/assets', '/assets?x=1', '/assets?redirect=https://evil.example'];
const RESOLVES_TO_A_FOLDER = [
  '/assets/',
  '/assets//',
  '/assets/.',
  '/assets/./',
  `/assets/${OWN}/..`,
  `/assets/${OWN}/../`,
  '/assets/sub',
  '/assets/sub/',
  '/assets/sub/..',
  '/assets/%2e',
  '/assets/other-release-AbCd1234.js/..',
];

describe.each(SETUPS)('with %s', (name) => {
  it.each(
    FOLDER.flatMap((path) => [
      ['GET', path],
      ['HEAD', path],
    ]),
  )('%s %s is a 301 to /assets/ with Cache-Control: no-store and one access line', async (method, path) => {
    const host = hosts[name]!;
    const answer = await raw(host, path, method);
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('/assets/');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toBe('');
    const id = String(answer.headers['x-request-id']);
    await host.logs.waitFor((line) => isAccessLine(line) && line.reqId === id);
    expect(host.logs.forRequest(id)).toMatchObject([{ status: 301, route: 'assets' }]);
  });

  it.each(RESOLVES_TO_A_FOLDER.map((path) => [path]))('%s is the 404 of an unknown asset, not a redirect', async (path) => {
    const host = hosts[name]!;
    const unknown = await raw(host, '/assets/never-published-0000.js');
    const answer = await raw(host, path);
    expect(answer.status).toBe(404);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.headers['cache-control']).toBe(unknown.headers['cache-control']);
    expect(answer.headers['content-type']).toBe(unknown.headers['content-type']);
  });

  it('still serves the files themselves, immutable', async () => {
    const answer = await raw(hosts[name]!, `/assets/${OWN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
