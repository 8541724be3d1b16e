// The soak's traffic: what each kind of request is, what it must answer, and how often it comes.
import { BROWSER_HEADERS, DIAGNOSTICS_HEADER, DIAGNOSTICS_TOKEN } from '../bench/app-server.ts';
import { BROWSER_UA, CRAWLER_UA } from '../harness/user-agents.ts';

export interface Kind {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Readonly<Record<string, string>>;
  expect: number;
  /** A failure on purpose: logged once at level 50, its digest in the response. */
  failure: boolean;
  /** Read the first chunk, then destroy the socket (a visitor who leaves mid-stream). */
  disconnect: boolean;
  /** Gets an access line at LOG_LEVEL=info (health checks and assets log at debug: server/observe/access-log.ts). */
  accessLogged: boolean;
  /** How many times it appears in one round of the mix. */
  weight: number;
}

const crawler = { ...BROWSER_HEADERS, 'user-agent': CRAWLER_UA };
const plain = { 'user-agent': BROWSER_UA };
/** Long enough that the client is certainly gone before the Suspense section resolves. */
export const DISCONNECT_SLOW_MS = 500;

type Spec = Pick<Kind, 'name' | 'path' | 'expect'> & Partial<Omit<Kind, 'name' | 'path' | 'expect'>>;

function kind(spec: Spec): Kind {
  return { method: 'GET', headers: BROWSER_HEADERS, failure: false, disconnect: false, accessLogged: true, weight: 1, ...spec };
}

export function buildMix(assetPath: string): Kind[] {
  return [
    kind({ name: 'home', path: '/', expect: 200, weight: 4 }),
    kind({ name: 'home (crawler)', path: '/', expect: 200, headers: crawler }),
    kind({ name: 'streamed page', path: '/_diag/slow?ms=50', expect: 200 }),
    kind({ name: 'static asset', path: assetPath, expect: 200, headers: plain, weight: 2, accessLogged: false }),
    kind({ name: 'healthz', path: '/healthz', expect: 200, headers: plain, accessLogged: false }),
    kind({ name: 'server error', path: '/_diag/server-error', expect: 500, failure: true }),
    kind({ name: 'async error', path: '/_diag/async-error', expect: 500, failure: true }),
    kind({ name: 'mid-stream error', path: '/_diag/stream-error', expect: 200, failure: true }),
    kind({ name: 'mid-stream error (crawler)', path: '/_diag/stream-error', expect: 200, failure: true, headers: crawler }),
    kind({ name: 'JSON error', path: '/_diag/api-error', expect: 500, failure: true }),
    kind({ name: '404 page', path: '/no-such-page', expect: 404 }),
    kind({ name: '404 JSON', path: '/api/anything', expect: 404 }),
    kind({ name: 'bad encoding', path: '/%E0%A4%A', expect: 400 }),
    kind({ name: 'POST /', method: 'POST', path: '/', expect: 405 }),
    kind({
      name: 'wrong diag token',
      path: '/_diag/server-error',
      expect: 404,
      headers: { ...plain, [DIAGNOSTICS_HEADER]: `${DIAGNOSTICS_TOKEN}-wrong` },
    }),
    kind({ name: 'disconnect mid-stream', path: `/_diag/slow?ms=${DISCONNECT_SLOW_MS}`, expect: 200, disconnect: true }),
  ];
}

/** A slow page read to its end: a response still streaming when SIGTERM lands. */
export function slowStream(ms: number): Kind {
  return kind({ name: `in-flight slow stream (${ms} ms)`, path: `/_diag/slow?ms=${ms}`, expect: 200 });
}

/** One round of the mix with each kind `weight` times, spread out rather than bunched. */
export function rounds(mix: Kind[]): Kind[] {
  const maxWeight = Math.max(...mix.map((k) => k.weight));
  const round: Kind[] = [];
  for (let pass = 0; pass < maxWeight; pass++) round.push(...mix.filter((k) => k.weight > pass));
  return round;
}
