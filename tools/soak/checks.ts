// What the soak proves, one check per guarantee. Each returns PASS/FAIL with its evidence.
import type { Exit } from '../harness/spawn.ts';
import { ACCEPTED_REPORTS, type Abuse } from './abuse.ts';
import type { Outcome } from './client.ts';
import { heapChecks, type MemoryAt } from './heap-checks.ts';
import { withoutInspectorLines } from './live-heap.ts';
import { HOSTILE_EXPECTED, HOSTILE_HEADERS, PIPELINING } from './raw-abuse.ts';
import type { ServerLog } from '../harness/server-log.ts';

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

export interface SoakFacts {
  /** Every request of the warm-up, the main run and the clients arriving during the drain. */
  outcomes: Outcome[];
  /** Streams in flight when SIGTERM landed. */
  inFlight: Outcome[];
  logs: ServerLog;
  aliveUntilSigterm: boolean;
  exit: Exit;
  stderr: string;
  /**
   * The live heap after a full collection (./live-heap.ts) after warm-up, after the main phase,
   * and after the abusive clients (when they ran); RSS at the same moments, shown beside it.
   */
  heapMb: MemoryAt;
  rssMb?: MemoryAt;
  fds: { warm: number; end: number };
  /** What each abusive client made the server write (tools/soak/abuse.ts), when they ran. */
  abuse?: Abuse[];
}

/** server/observe/log-bound.ts: no line over 8 KB. */
export const MAX_LINE_BYTES = 8 * 1024;
/** Refusals write a line when they start and one with the count when the minute ends. */
const SUMMARY_LINES = 2;

/** Descriptors come and go (a timer, a pipe being flushed): a few either way is not a leak. */
export const FD_SLACK = 5;

/** A refused or reset connection before any response, during the drain, is the drain working. */
const refusedInDrain = (o: Outcome) => o.phase === 'drain' && o.status === undefined;

function tally(outcomes: Outcome[], describe: (o: Outcome) => string): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(describe(o), (counts.get(describe(o)) ?? 0) + 1);
  return [...counts]
    .slice(0, 6)
    .map(([what, n]) => `${n}× ${what}`)
    .join('; ');
}

function check(name: string, bad: Outcome[], total: number, describe: (o: Outcome) => string): Check {
  return {
    name,
    pass: bad.length === 0,
    detail: bad.length === 0 ? `${total} checked` : `${bad.length} of ${total}: ${tally(bad, describe)}`,
  };
}

const what = (o: Outcome) => `${o.kind.name} → ${o.status ?? o.error}`;

function statusChecks(facts: SoakFacts): Check[] {
  const answered = facts.outcomes.filter((o) => !refusedInDrain(o));
  return [
    check(
      'no 5xx besides the diagnostic error routes',
      answered.filter((o) => (o.status ?? 0) >= 500 && o.kind.expect < 500),
      answered.length,
      what,
    ),
    check(
      'every request answered its expected status',
      answered.filter((o) => o.status !== o.kind.expect || (o.error !== undefined && !o.complete)),
      answered.length,
      what,
    ),
  ];
}

function digestChecks(facts: SoakFacts): Check[] {
  const all = [...facts.outcomes, ...facts.inFlight].filter((o) => o.complete);
  const failures = all.filter((o) => o.kind.failure);
  const withDigest = all.filter((o) => o.digests.length > 0);
  const inLog = (o: Outcome, digest: string) =>
    facts.logs.failuresByReq.get(o.reqId ?? '')?.some((line) => line.digest === digest) === true;
  const failureLines = (o: Outcome) => facts.logs.failuresByReq.get(o.reqId ?? '')?.length ?? 0;
  const withId = all.filter((o) => o.reqId !== undefined);
  const ours = new Set(withId.map((o) => o.reqId));
  const strays = [...facts.logs.failuresByReq.keys()].filter((id) => !ours.has(id)).length + facts.logs.otherFailures.length;
  const logged = withId.filter((o) => o.kind.accessLogged);
  const once = check(
    'each failure logged exactly once; pages, 4xx and disconnects never',
    withId.filter((o) => failureLines(o) !== (o.kind.failure ? 1 : 0)),
    withId.length,
    (o) => `${o.kind.name} logged ${failureLines(o)}×`,
  );
  return [
    check(
      'every failure response carries a digest',
      failures.filter((o) => o.digests.length === 0),
      failures.length,
      what,
    ),
    check(
      'every digest in a response is a level-50 line with the same request id',
      withDigest.filter((o) => !o.digests.every((d) => inLog(o, d))),
      withDigest.length,
      (o) => `${o.kind.name} ${o.digests.join(',')}`,
    ),
    strays === 0 ? once : { ...once, pass: false, detail: `${once.detail}; ${strays} error lines for requests the soak did not see` },
    check(
      'one access line per request (health checks and assets excepted)',
      logged.filter((o) => facts.logs.accessByReq.get(o.reqId!) !== 1),
      logged.length,
      (o) => `${o.kind.name} ×${facts.logs.accessByReq.get(o.reqId!) ?? 0}`,
    ),
  ];
}

function resourceChecks(facts: SoakFacts): Check[] {
  const { fds } = facts;
  const stderr = withoutInspectorLines(facts.stderr);
  return [
    {
      name: 'server stayed up until SIGTERM',
      pass: facts.aliveUntilSigterm,
      detail: facts.aliveUntilSigterm ? 'alive' : `exited early: ${stderr.slice(0, 200)}`,
    },
    ...heapChecks(facts.heapMb, facts.rssMb),
    { name: `open descriptors did not grow (slack ${FD_SLACK})`, pass: fds.end <= fds.warm + FD_SLACK, detail: `${fds.warm} → ${fds.end}` },
    { name: 'nothing on stderr', pass: stderr === '', detail: stderr === '' ? 'empty' : stderr.slice(0, 200) },
    {
      name: 'stdout is JSON lines only',
      pass: facts.logs.notJson.length === 0,
      detail: `${facts.logs.count} lines${facts.logs.notJson.length ? `; first other: ${facts.logs.notJson[0]!.slice(0, 120)}` : ''}`,
    },
  ];
}

function drainChecks(facts: SoakFacts): Check[] {
  const drain = facts.outcomes.filter((o) => o.phase === 'drain');
  const begun = drain.filter((o) => o.status !== undefined && !o.kind.disconnect);
  const last = facts.logs.last;
  return [
    check(
      'streams in flight at SIGTERM finished (200, body ends </html>)',
      facts.inFlight.filter((o) => o.status !== 200 || !o.complete || !o.wholeDocument),
      facts.inFlight.length,
      what,
    ),
    check(
      'responses begun during the drain completed',
      begun.filter((o) => !o.complete),
      begun.length,
      what,
    ),
    {
      name: 'exit code 0 after SIGTERM',
      pass: facts.exit.code === 0,
      detail: `code ${facts.exit.code}, signal ${facts.exit.signal}; ${drain.filter(refusedInDrain).length} arriving clients refused`,
    },
    { name: 'last log line is "stopped" (clean)', pass: last?.msg === 'stopped' && last.clean === true, detail: stoppedDetail(facts.logs) },
  ];
}

/** When lines follow "stopped", show them: which request, and when it was logged. */
function stoppedDetail(logs: ServerLog): string {
  if (!logs.stopped) return `no "stopped" line; last: ${JSON.stringify(logs.last?.msg)}`;
  if (logs.afterStopped.length === 0) return JSON.stringify({ msg: logs.stopped.msg, clean: logs.stopped.clean });
  const after = logs.afterStopped.map((line) => {
    const where = typeof line.path === 'string' ? `${String(line.method)} ${line.path} ` : '';
    return `"${line.msg}" ${where}time ${String(line.time)}`;
  });
  return `${after.length} line(s) after "stopped" (time ${String(logs.stopped.time)}): ${after.slice(0, 3).join('; ')}`;
}

function abuseChecks(facts: SoakFacts): Check[] {
  if (facts.abuse === undefined) return [];
  const byName = new Map(facts.abuse.map((abuse) => [abuse.name, abuse]));
  const perRequest = (name: string): Check => {
    const abuse = byName.get(name)!;
    return {
      name: `${name}: at most one line per request`,
      pass: abuse.lines <= abuse.requests,
      detail: `${abuse.lines} lines for ${abuse.requests} requests`,
    };
  };
  const reports = byName.get('report flood')!;
  const reportBound = 2 * ACCEPTED_REPORTS + SUMMARY_LINES;
  return [
    {
      name: "an abusive client's 14 KB header is in no log line",
      pass: facts.logs.markedLines === 0,
      detail: `${facts.logs.markedLines} lines contain it`,
    },
    {
      name: `no log line over ${MAX_LINE_BYTES} bytes`,
      pass: facts.logs.longestLineBytes <= MAX_LINE_BYTES,
      detail: `longest ${facts.logs.longestLineBytes} bytes`,
    },
    perRequest('big headers (14 KB)'),
    perRequest('404 flood'),
    ...rawChecks(byName.get(PIPELINING), byName.get(HOSTILE_HEADERS), perRequest),
    {
      name: `report flood: at most ${reportBound} lines however many are refused`,
      pass: reports.lines <= reportBound,
      detail: `${reports.lines} lines for ${reports.requests} reports (${reports.statuses['429'] ?? 0} refused)`,
    },
  ];
}

/** The raw-socket clients (raw-abuse.ts): a line a request at most, and every hostile request refused as it should be. */
function rawChecks(pipelining: Abuse | undefined, hostile: Abuse | undefined, perRequest: (name: string) => Check): Check[] {
  if (pipelining === undefined || hostile === undefined) return [];
  const wrong = Object.entries(hostile.statuses).filter(([status]) => !HOSTILE_EXPECTED.has(status));
  return [
    perRequest(PIPELINING),
    perRequest(HOSTILE_HEADERS),
    {
      name: 'hostile headers: each refused with its 4xx (400, 413 or 429, 417), never a 5xx or no answer',
      pass: wrong.length === 0,
      detail: Object.entries(hostile.statuses)
        .map(([status, n]) => `${status}×${n}`)
        .join(' '),
    },
  ];
}

export function evaluate(facts: SoakFacts): Check[] {
  return [...resourceChecks(facts), ...statusChecks(facts), ...digestChecks(facts), ...drainChecks(facts), ...abuseChecks(facts)];
}
