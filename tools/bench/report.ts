// The bench's findings, printed for people and written to artifacts/bench/ as Markdown + JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Measured } from './load.ts';
import type { FirstLoadJs, StreamTiming } from './measure.ts';
import { STREAMED_MS, STREAMED_PATH } from './routes.ts';
import { ROOT } from '../harness/paths.ts';
import { benchTable, toMarkdown, toText } from './table.ts';
import type { CompressedPage, Row, Target } from './targets.ts';
import { growthTable, type GrowthReport } from './route-growth.ts';
import type { FixedAndFailureFloors } from './fixed-and-failure-floors.ts';
import { STORED_PATH, type Stampede } from './stored-page.ts';

export const ARTIFACT_DIR = join(ROOT, 'artifacts/bench');

export interface BenchReport {
  generatedAt: string;
  /** busyBefore: the whole machine's CPU use (0..1) just before the run, from /proc/stat. */
  machine: { cores: number; cpu: string; node: string; busyBefore: number };
  settings: { connections: number; durationS: number; warmupS: number; short: boolean; pinned: boolean; serverLogLevel: string };
  rows: Row[];
  httpFloor: Measured;
  streaming: StreamTiming[];
  coldStart: { medianMs: number; runsMs: number[] };
  peakRssMb: { server: number; httpFloor: number; reactFloor: number; bareFloor: number };
  firstLoadJs: FirstLoadJs;
  targets: Target[];
  /** The streamed page with a browser's Accept-Encoding (its target compares it with the page row). */
  compressedPage: CompressedPage;
  /** The same requests against the demo's route table and a build with 1,000 more routes. */
  growth: GrowthReport;
  /** Issue 37: /about loaded while stored, the floors it and the failure paths are held to, and a stampede on it once stale. */
  storedPage: Measured;
  fixedAndFailureFloors: FixedAndFailureFloors;
  stampede: Stampede;
}

export function machine(): Omit<BenchReport['machine'], 'busyBefore'> {
  return { cores: cpus().length, cpu: cpus()[0]?.model.trim() ?? 'unknown', node: process.version };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

function notes(report: BenchReport): string[] {
  const { settings, machine: m } = report;
  return [
    `Machine: ${m.cores} cores (${m.cpu}), Node ${m.node}, ${(m.busyBefore * 100).toFixed(0)}% busy just before the run. Load from autocannon in this process, ` +
      `${settings.connections} connections, ${settings.warmupS} s warm-up + ${settings.durationS} s per route; each server is its own process` +
      (settings.pinned ? ', pinned to one core, with the load generator on another.' : ' (not pinned to cores).'),
    `Our server runs with LOG_LEVEL=${settings.serverLogLevel} and writes its log to a file: every access line and every failure line is written; "log B/req" is that file's growth per response.`,
    `The page row renders the same page on both sides (${STREAMED_PATH}: an h1 and one Suspense section resolved after ${STREAMED_MS} ms, with a browser User-Agent, so the shell streams first); ` +
      `"CPU µs/req" (server process, from /proc) shows what each response costs.`,
  ];
}

function extras(report: BenchReport): string[] {
  const lines = report.streaming.map(
    (timing) =>
      `Streaming ${timing.path} (median of ${timing.samples}, idle server): first chunk ${ms(timing.firstChunkMs)}, complete ${ms(timing.totalMs)}`,
  );
  const { coldStart, peakRssMb, firstLoadJs } = report;
  lines.push(
    `Cold start (spawn → first 200 on /healthz), median of ${coldStart.runsMs.length}: ${ms(coldStart.medianMs)} (${coldStart.runsMs.map((run) => run.toFixed(0)).join(', ')} ms)`,
  );
  lines.push(
    `Peak RSS (VmHWM) after the load: server ${peakRssMb.server.toFixed(1)} MB; floors: node:http ${peakRssMb.httpFloor.toFixed(1)} MB, Express+React ${peakRssMb.reactFloor.toFixed(1)} MB, bare ${peakRssMb.bareFloor.toFixed(1)} MB`,
  );
  const files = firstLoadJs.files.map((file) => `${file.path} ${(file.gzipBytes / 1024).toFixed(1)} KB`).join(', ');
  lines.push(`First-load JS of / (gzip as served: the build's .gz): ${(firstLoadJs.gzipBytes / 1024).toFixed(1)} KB (${files})`);
  const floor = report.httpFloor;
  lines.push(
    `node:http floor (same HTML bytes as /): ${floor.rps.toFixed(0)} req/s, p50 ${floor.p50} ms, p99 ${floor.p99} ms, CPU ${floor.cpuUsPerRequest.toFixed(0)} µs/req`,
  );
  lines.push(...storedLines(report));
  return lines;
}

const rate = (m: Measured) => `${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, CPU ${m.cpuUsPerRequest.toFixed(0)} µs/req`;

function storedLines({ storedPage, fixedAndFailureFloors: floors, stampede }: BenchReport): string[] {
  const xCache = Object.entries(stampede.xCache).map(([kind, count]) => `${kind}×${count}`);
  return [
    `Stored page ${STORED_PATH} (warmed once, then loaded: HIT, STALE once its 10 s pass): ${rate(storedPage)}, log ${storedPage.logBytesPerRequest.toFixed(0)} B/req`,
    `Bare Express floor (floor-express.ts): fixed 10 KB page ${rate(floors.fixedPage)}; its own 404 ${rate(floors.express404)}; peak RSS ${floors.peakRssMb.express.toFixed(1)} MB`,
    `Failure floor (floor-failure.tsx: HMAC digest, one pino line, renderToString): ${rate(floors.failure)}, log ${floors.failure.logBytesPerRequest.toFixed(0)} B/req; peak RSS ${floors.peakRssMb.failure.toFixed(1)} MB`,
    `Same-output floor (floor-same-output.ts: our answers' bytes, headers and access line on bare Express + pino-http): 404 ${rate(floors.sameOutput404)}; stored page ${rate(floors.sameOutputPage)}; peak RSS ${floors.peakRssMb.sameOutput.toFixed(1)} MB`,
    `Stampede: ${stampede.requests} requests at once, each on its own connection, on ${STORED_PATH} just stale: ${stampede.renders} render(s) (distinct "Served at" times), x-cache ${xCache.join(' ')}, p50 ${stampede.p50} ms, p99 ${stampede.p99} ms, errors ${stampede.errors}`,
  ];
}

function targetLines(targets: Target[]): string[] {
  return targets.map((target) => `${target.pass ? 'pass' : 'MISS'}  ${target.name}: ${target.detail}`);
}

export function renderText(report: BenchReport): string {
  return [
    toText(benchTable(report.rows, report.targets)),
    '',
    ...extras(report),
    '',
    'Targets:',
    ...targetLines(report.targets).map((line) => `  ${line}`),
    '',
    toText(growthTable(report.growth)),
    '',
    ...notes(report),
  ].join('\n');
}

export function renderMarkdown(report: BenchReport): string {
  return [
    `Bench of ${report.generatedAt}${report.settings.short ? ' (--short)' : ''}`,
    '',
    toMarkdown(benchTable(report.rows, report.targets)),
    '',
    ...extras(report).map((line) => `- ${line}`),
    '',
    'Targets:',
    '',
    ...targetLines(report.targets).map((line) => `- ${line}`),
    '',
    toMarkdown(growthTable(report.growth)),
    '',
    ...notes(report).map((line) => `> ${line}\n>`),
  ].join('\n');
}

export function writeArtifacts(report: BenchReport): string[] {
  mkdirSync(ARTIFACT_DIR, { recursive: true });
  const md = join(ARTIFACT_DIR, 'bench.md');
  const json = join(ARTIFACT_DIR, 'bench.json');
  writeFileSync(md, `${renderMarkdown(report)}\n`);
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return [md, json];
}
