// One abusive client at a time, each for a few seconds, while the log is weighed: what can a
// single client make the server write? (issue 11: a 14 KB header was logged verbatim on every
// line; every refused report wrote two lines.) Each returns requests, lines and bytes written.
import { Agent, request } from 'node:http';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { BROWSER_UA } from '../harness/user-agents.ts';
import type { ServerLog } from '../harness/server-log.ts';

/** Short enough to keep the soak short, long enough for thousands of requests. */
export const ABUSE_S = 3;
/** One client, a handful of connections: a script in a loop, not a botnet. */
const CONNECTIONS = 8;
/** 14 KB, as in the issue: under Node's 16 KiB header limit, so it reaches the app. */
const BIG_HEADER_BYTES = 14 * 1024;
export const BIG_HEADER_MARKER = 'abusive-client-big-header';
/** server/telemetry/client-errors.ts accepts 10 reports a minute per client. */
export const ACCEPTED_REPORTS = 10;

export interface Abuse {
  name: string;
  requests: number;
  statuses: Record<string, number>;
  lines: number;
  bytes: number;
  seconds: number;
}

interface Shot {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const REPORT = JSON.stringify({ kind: 'recoverable', digest: 'c-abuse0001', type: 'Error', message: 'a report in a loop', path: '/' });

const KINDS: { name: string; shot: (n: number) => Shot }[] = [
  {
    name: 'big headers (14 KB)',
    shot: () => ({
      method: 'GET',
      path: '/no-such-page',
      headers: { 'user-agent': BROWSER_UA, 'x-padding': BIG_HEADER_MARKER.padEnd(BIG_HEADER_BYTES, 'x') },
    }),
  },
  // A new path each time, so no cache of ours helps it.
  { name: '404 flood', shot: (n) => ({ method: 'GET', path: `/flood/${n}`, headers: { 'user-agent': BROWSER_UA } }) },
  {
    name: 'report flood',
    shot: () => ({
      method: 'POST',
      path: CLIENT_ERRORS_PATH,
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
      body: REPORT,
    }),
  },
];

function fire(base: string, shot: Shot, agent: Agent): Promise<number> {
  return new Promise((resolve) => {
    const headers = shot.body === undefined ? shot.headers : { ...shot.headers, 'content-length': String(Buffer.byteLength(shot.body)) };
    const req = request(base + shot.path, { method: shot.method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(shot.body);
  });
}

async function run(base: string, logs: ServerLog, name: string, shot: (n: number) => Shot): Promise<Abuse> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const before = { lines: logs.count, bytes: logs.bytes };
  const started = performance.now();
  const deadline = started + ABUSE_S * 1000;
  const statuses: Record<string, number> = {};
  let sent = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const status = await fire(base, shot(sent++), agent);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  // Lines of the last responses are written when they finish: let stdout catch up.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    name,
    requests: sent,
    statuses,
    lines: logs.count - before.lines,
    bytes: logs.bytes - before.bytes,
    seconds: (performance.now() - started) / 1000,
  };
}

export async function abusiveClients(base: string, logs: ServerLog): Promise<Abuse[]> {
  logs.marker = BIG_HEADER_MARKER;
  const results: Abuse[] = [];
  for (const kind of KINDS) results.push(await run(base, logs, kind.name, kind.shot));
  return results;
}
