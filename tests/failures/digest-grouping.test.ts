import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { pageDigest, streamedDigest } from '../../tools/harness/digests.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { DIAG_TOKEN } from '../support/test-app.ts';

// One failure, one digest: under thousands of concurrent occurrences, across processes that
// share DIGEST_KEY, and across installs at different paths. Different failures still differ.

const DIGEST_KEY = 'grouping-test-digest-key-0123';
const ENV = { DIGEST_KEY, DIAGNOSTICS_TOKEN: DIAG_TOKEN };
/** Requests per failure, all four failures interleaved in one flood; in flight at once: bounded for a 2-core box. */
const REQUESTS_PER_FAILURE = 500;
const IN_FLIGHT = 100;
/** 2,000 requests take a few seconds on an idle 2-core machine; others share this one. */
const LOAD_TIMEOUT_MS = 120_000;

type Extract = (body: string) => string | undefined;
const json: Extract = (body) => (JSON.parse(body) as { error?: { digest?: string } }).error?.digest;

const FAILURES: [path: string, digestOf: Extract][] = [
  ['/_diag/server-error', pageDigest],
  ['/_diag/stream-error', streamedDigest],
  ['/_diag/api-error', json],
  ['/_diag/async-error', pageDigest],
];

function get(agent: Agent, url: string): Promise<{ status: number; body: string; reqId: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'user-agent': BROWSER_UA, 'x-diagnostics-token': DIAG_TOKEN } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, reqId: String(res.headers['x-request-id']) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A copy of the build at another path, as a replica installed elsewhere would have it. */
function installCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'digest-replica-'));
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

describe('one failure, one digest', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(ENV);
  });
  afterAll(() => server?.stop('SIGKILL'));

  it(
    `${REQUESTS_PER_FAILURE} concurrent requests at each diagnostic failure give exactly one digest per failure`,
    async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
      const seen = new Map<string, Set<string>>();
      try {
        // Interleaved: each failure's occurrences meet the others' under one load, as in production.
        const flood = Array.from({ length: REQUESTS_PER_FAILURE }, () => FAILURES).flat();
        const responses = await Promise.all(
          flood.map(async ([path, digestOf]) => ({ path, digestOf, res: await get(agent, `${server.url}${path}`) })),
        );
        for (const { path, digestOf, res } of responses) {
          const digests = seen.get(path) ?? new Set<string>();
          digests.add(digestOf(res.body) ?? `none (${res.status})`);
          seen.set(path, digests);
        }
      } finally {
        agent.destroy();
      }
      // A response can arrive before the server's line about it has been read from its stdout.
      await vi.waitFor(() => expect(server.logs.failures()).toHaveLength(FAILURES.length * REQUESTS_PER_FAILURE));
      const logged = new Map<string, Set<string>>();
      for (const line of server.logs.failures()) {
        const path = String(line.path);
        logged.set(path, (logged.get(path) ?? new Set()).add(String(line.digest)));
      }
      for (const [path] of FAILURES) {
        expect([...seen.get(path)!], path).toHaveLength(1);
        expect([...logged.get(path)!], path).toEqual([...seen.get(path)!]);
      }
      expect(server.logs.failures()).toHaveLength(FAILURES.length * REQUESTS_PER_FAILURE);
      // Different code paths keep different digests.
      expect(new Set([...seen.values()].map((digests) => [...digests][0])).size).toBe(FAILURES.length);
    },
    LOAD_TIMEOUT_MS,
  );

  it('logged stacks name the source files and lines, not the bundle', async () => {
    const agent = new Agent();
    const res = await get(agent, `${server.url}/_diag/server-error`);
    agent.destroy();
    const line = await server.logs.waitFor((l) => l.reqId === res.reqId && l.error !== undefined);
    const stack = line.error?.stack ?? '';
    expect(stack).toMatch(/^ {4}at ServerError \(\S*\/client\/router\/diagnostics\/server-error\.tsx:\d+:\d+\)$/m);
    expect(stack).not.toMatch(/dist\/server/);
  });
});

describe('replicas', () => {
  const copies: string[] = [];
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  });

  it('two processes with one DIGEST_KEY, installed in different directories, agree on every digest', async () => {
    copies.push(installCopy(), installCopy());
    for (const dir of copies) servers.push(await startServer(ENV, ['node', join(dir, 'dist/server/index.js')]));
    const agent = new Agent();
    try {
      for (const [path, digestOf] of FAILURES) {
        const [a, b] = await Promise.all(servers.map(async (server) => digestOf((await get(agent, `${server.url}${path}`)).body)));
        expect(a, path).toMatch(SERVER_DIGEST);
        expect(b, path).toBe(a);
      }
    } finally {
      agent.destroy();
    }
  });
});
