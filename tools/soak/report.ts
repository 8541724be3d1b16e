// The soak's two tables: the traffic by kind, and the checks with PASS/FAIL.
import { toText, type Table } from '../bench/table.ts';
import type { Abuse } from './abuse.ts';
import type { Check } from './checks.ts';
import type { Outcome } from './client.ts';

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export function trafficTable(outcomes: Outcome[]): Table {
  const byKind = new Map<string, Outcome[]>();
  for (const o of outcomes) {
    const list = byKind.get(o.kind.name) ?? [];
    list.push(o);
    byKind.set(o.kind.name, list);
  }
  const rows = [...byKind].map(([name, list]) => {
    const statuses = new Map<string, number>();
    for (const o of list) {
      const status = String(o.status ?? 'no response');
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const ms = list.map((o) => o.ms).sort((a, b) => a - b);
    return [
      name,
      String(list.length),
      `${list[0]!.kind.expect}`,
      [...statuses].map(([status, n]) => `${status}×${n}`).join(' '),
      percentile(ms, 0.5).toFixed(1),
      percentile(ms, 0.99).toFixed(1),
    ];
  });
  return { headers: ['kind', 'requests', 'expect', 'statuses', 'p50 ms', 'p99 ms'], numeric: [false, true, true, false, true, true], rows };
}

export function checksTable(checks: Check[]): Table {
  return {
    headers: ['check', 'result', 'detail'],
    numeric: [false, false, false],
    rows: checks.map((c) => [c.name, c.pass ? 'PASS' : 'FAIL', c.detail]),
  };
}

export function abuseTable(abuse: Abuse[]): Table {
  return {
    headers: ['abusive client', 'requests', 'req/s', 'statuses', 'log lines', 'lines/req', 'log bytes', 'B/req', 'log KB/s'],
    numeric: [false, true, true, false, true, true, true, true, true],
    rows: abuse.map((a) => [
      a.name,
      String(a.requests),
      (a.requests / a.seconds).toFixed(0),
      Object.entries(a.statuses)
        .map(([status, n]) => `${status}×${n}`)
        .join(' '),
      String(a.lines),
      (a.lines / a.requests).toFixed(3),
      String(a.bytes),
      (a.bytes / a.requests).toFixed(0),
      (a.bytes / a.seconds / 1024).toFixed(0),
    ]),
  };
}

/** The main phase's log volume: what ordinary mixed traffic writes. */
export interface LogVolume {
  requests: number;
  bytes: number;
  seconds: number;
}

export function printReport(outcomes: Outcome[], checks: Check[], volume?: LogVolume, abuse?: Abuse[]): void {
  console.log(`\nTraffic (all phases):\n${toText(trafficTable(outcomes))}\n`);
  if (volume) {
    console.log(
      `Log, main phase: ${volume.bytes} bytes for ${volume.requests} requests: ${(volume.bytes / volume.requests).toFixed(0)} bytes per request, ` +
        `${(volume.bytes / volume.seconds / 1024).toFixed(0)} KB/s\n`,
    );
  }
  if (abuse) console.log(`One abusive client at a time (log written while it ran):\n${toText(abuseTable(abuse))}\n`);
  console.log(`Checks:\n${toText(checksTable(checks))}\n`);
  const failed = checks.filter((c) => !c.pass).length;
  console.log(failed === 0 ? `soak: all ${checks.length} checks passed` : `soak: ${failed} of ${checks.length} checks FAILED`);
}
