// The request id is the server's choice: an incoming X-Request-Id is kept only when TRUST_PROXY
// trusts the connection's peer and the id has the log-line contract's shape (shared/log-line.ts
// REQUEST_ID). HAProxy's unique id (deploy/haproxy.cfg) is such an id and keeps passing.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAccessLine, REQUEST_ID } from '../../shared/log-line.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { listeningTestApp } from '../support/test-app.ts';

const MINTED = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Ids in HAProxy's own unique-id-format, read from deploy/haproxy.cfg: with %{+X}o every field
 * is upper-case hex (HAProxy's docs give 7F000001:8296_7F00001E:1F90_4F7B0A69_0003:790A).
 */
function haproxyIds(count: number): string[] {
  const config = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
  const format = /^\s*unique-id-format %\{\+X\}o\\ (\S+)$/m.exec(config)?.[1];
  if (format === undefined) throw new Error('deploy/haproxy.cfg has no hex unique-id-format');
  /** Widths in hex digits: addresses 8, ports and counters 4, the timestamp 8. */
  const WIDTH: Record<string, number> = { ci: 8, fi: 8, cp: 4, fp: 4, Ts: 8, rt: 4, pid: 4 };
  return Array.from({ length: count }, (_, i) =>
    format.replace(/%([A-Za-z]+)/g, (_match, field: string) => {
      const width = WIDTH[field];
      if (width === undefined) throw new Error(`unknown field %${field} in the unique-id-format`);
      // Spread over the whole range: 0, the maximum, and values between.
      const max = 16 ** width - 1;
      const value = i === 0 ? 0 : i === 1 ? max : Math.floor((max * ((i * 7919) % 1000)) / 1000);
      return value.toString(16).toUpperCase().padStart(width, '0');
    }),
  );
}

/** Ids a trusted proxy may pass on: HAProxy's, and other shapes the contract allows. */
const WELL_FORMED = [
  '7F000001:8296_7F00001E:1F90_4F7B0A69_0003:790A',
  ...haproxyIds(24),
  'lb-7f3a.42',
  randomUUID(),
  'req@edge-3:17',
  'x',
  'a'.repeat(128),
];
/** Ids nobody may set: too long, or characters that a log search or a header would misread. */
const MALFORMED = [
  'a'.repeat(129),
  'has space',
  'quote"d',
  'back\\slash',
  'semi;colon',
  'comma,joined',
  'slash/x',
  'tab\tx',
  'caf\u00e9',
  '<script>',
  '%0d%0afake',
  '',
];

interface Peer {
  name: string;
  trustProxy?: string;
  /** The client's address (all loopback: Linux routes 127.0.0.0/8 to lo). */
  from: string;
  trusted: boolean;
}

const PEERS: Peer[] = [
  { name: 'TRUST_PROXY unset', from: '127.0.0.1', trusted: false },
  { name: 'TRUST_PROXY=loopback', trustProxy: 'loopback', from: '127.0.0.1', trusted: true },
  { name: 'TRUST_PROXY=1 (a hop count trusts the peer)', trustProxy: '1', from: '127.0.0.1', trusted: true },
  { name: 'TRUST_PROXY=10.0.0.0/8, peer outside it', trustProxy: '10.0.0.0/8', from: '127.0.0.1', trusted: false },
  { name: 'TRUST_PROXY=127.0.0.2, from 127.0.0.2', trustProxy: '127.0.0.2', from: '127.0.0.2', trusted: true },
  { name: 'TRUST_PROXY=127.0.0.2, from 127.0.0.3', trustProxy: '127.0.0.2', from: '127.0.0.3', trusted: false },
];

describe.each(PEERS)('an incoming X-Request-Id with $name', ({ trustProxy, from, trusted }) => {
  const host = listeningTestApp(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy });

  /** The id answered, after checking it is the one and only access line's id. */
  async function idFor(headers: Record<string, string | string[]>): Promise<string> {
    const res = await fetchOnce(`${host.url}/no-such-page`, { headers: headers as Record<string, string>, localAddress: from });
    expect(res.status).toBe(404);
    const id = String(res.headers['x-request-id']);
    await host.logs.waitFor((line) => isAccessLine(line) && line.reqId === id);
    expect(host.logs.lines.filter((line) => line.reqId === id)).toHaveLength(1);
    return id;
  }

  it.each(WELL_FORMED)(trusted ? 'keeps the well-formed %s' : 'replaces the well-formed %s with an id of its own', async (incoming) => {
    expect(REQUEST_ID.test(incoming)).toBe(true);
    const id = await idFor({ 'x-request-id': incoming });
    if (trusted) expect(id).toBe(incoming);
    else {
      expect(id).toMatch(MINTED);
      expect(JSON.stringify(host.logs.lines)).not.toContain(`"${incoming}"`);
    }
  });

  it.each(MALFORMED.map((id) => [JSON.stringify(id).slice(0, 40), id]))('replaces the malformed %s', async (_name, incoming) => {
    expect(REQUEST_ID.test(incoming)).toBe(false);
    expect(await idFor({ 'x-request-id': incoming })).toMatch(MINTED);
  });

  it('replaces two X-Request-Id lines, even of well-formed ids (Node joins them with ", ")', async () => {
    expect(await idFor({ 'x-request-id': ['lb-1', 'lb-2'] })).toMatch(MINTED);
  });

  it('mints a fresh id for every request that sends none', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 10; i++) ids.add(await idFor({}));
    expect(ids.size).toBe(10);
    for (const id of ids) expect(id).toMatch(MINTED);
  });
});
