// The bench's findings, printed for people and written to artifacts/bench/ as Markdown + JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { STREAMED_MS } from './cases.ts';
import type { Measured } from './load.ts';
import type { FirstLoadJs, StreamTiming } from './measure.ts';
import { ROOT } from '../harness/paths.ts';
import { benchTable, toMarkdown, toText } from './table.ts';
import type { CompressedPage, Row, Target } from './targets.ts';
import type { FixedAndFailureFloors } from './fixed-and-failure-floors.ts';
import { STORED_PATH, type Stampede } from './stored-page.ts';

export const ARTIFACT_DIR = join(ROOT, 'artifacts/bench');

export interface BenchReport {
  generatedAt: string;
  /** busyBefore: the whole machine's CPU use (0..1) just before the run, from /proc/stat. */
  machine: { cores: number; cpu: string; node: string; busyBefore: number };
  settings: {
    connections: number;
    durationS: number;
    warmupS: number;
    rounds: number;
    short: boolean;
    pinned: boolean;
    serverLogLevel: string;
  };
  /** The previous main's checkout and commit (--baseline). */
  baseline?: { dir: string; commit: string };
  rows: Row[];
  targets: Target[];
  /** The streamed page's bytes on node:http, and the same page on Express + React alone (floor-bare.tsx). */
  httpFloor: Measured;
  bareFloor: Measured;
  streaming: StreamTiming[];
  coldStart: { medianMs: number; runsMs: number[] };
  peakRssMb: Record<string, number>;
  firstLoadJs: FirstLoadJs;
  /** The streamed page with a browser's Accept-Encoding (its target compares it with the page row). */
  compressedPage: CompressedPage;
  fixedAndFailureFloors: FixedAndFailureFloors;
  stampede: Stampede;
}

export function machine(): Omit<BenchReport['machine'], 'busyBefore'> {
  return { cores: cpus().length, cpu: cpus()[0]?.model.trim() ?? 'unknown', node: process.version };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const rate = (m: Measured) => `${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, CPU ${m.cpuUsPerRequest.toFixed(0)} µs/req`;

function notes(report: BenchReport): string[] {
  const { settings, machine: m, baseline } = report;
  return [
    `Machine: ${m.cores} cores (${m.cpu}), Node ${m.node}, ${(m.busyBefore * 100).toFixed(0)}% busy just before the run. Load from autocannon in this process, ` +
      `${settings.connections} connections, ${settings.warmupS} s warm-up + ${settings.durationS} s per run; each server is its own process` +
      (settings.pinned ? ', pinned to one core, with the load generator on another.' : ' (not pinned to cores).'),
    `Rounds: ${settings.rounds}. In each, every case runs on each of its sides in turn (reversed every other round); the gate's cases run in every round, the others in the first. ` +
      'A side shows the median of its rounds; "× floor" and "× main" are the medians of the rounds\' ratios.',
    `The bench app (tools/bench/app) is one build, served by the host (APP_BUILD) and by @react-router/express alone (tools/bench/floor-react-router.ts). ` +
      `Its page is an h1 and one Suspense section resolved after ${STREAMED_MS} ms, asked for with a browser's User-Agent, so the shell streams first.`,
    baseline
      ? `The previous main: ${baseline.dir} at ${baseline.commit}, its own build, answering the same cases on its own routes (its /_diag/slow?ms=${STREAMED_MS} page, /_diag/server-error, ${STORED_PATH}).`
      : "No --baseline: the gate's comparisons with the previous main were not made.",
    `Our servers run with LOG_LEVEL=${settings.serverLogLevel} and write their log to a file: every access line and every failure line is written; "log B/req" is that file's growth per response ` +
      "(React Router's floor writes its handleError's lines to a file too).",
  ];
}

function extras(report: BenchReport): string[] {
  const { coldStart, peakRssMb, firstLoadJs, fixedAndFailureFloors: floors, stampede, compressedPage } = report;
  const lines = report.streaming.map(
    (timing) =>
      `Streaming ${timing.path} (median of ${timing.samples}, idle server): first chunk ${ms(timing.firstChunkMs)}, complete ${ms(timing.totalMs)}`,
  );
  const files = firstLoadJs.files.map((file) => `${file.path} ${(file.gzipBytes / 1024).toFixed(1)} KB`).join(', ');
  const xCache = Object.entries(stampede.xCache).map(([kind, count]) => `${kind}×${count}`);
  const rss = Object.entries(peakRssMb).map(([who, mb]) => `${who} ${mb.toFixed(1)} MB`);
  lines.push(
    `Cold start (spawn → first 200 on /healthz, the demo), median of ${coldStart.runsMs.length}: ${ms(coldStart.medianMs)} (${coldStart.runsMs.map((run) => run.toFixed(0)).join(', ')} ms)`,
    `Peak RSS (VmHWM) after the load: ${rss.join(', ')}`,
    `First-load JS of the demo's / (gzip as served: the build's .gz): ${(firstLoadJs.gzipBytes / 1024).toFixed(1)} KB (${files})`,
    `The streamed page compressed (${compressedPage.encoding}): ${rate(compressedPage.compressed)}; plain in the same runs: ${rate(compressedPage.plain)}`,
    `node:http floor (the streamed page's bytes, fixed): ${rate(report.httpFloor)}`,
    `Express + React alone (floor-bare.tsx, the same page with no router): ${rate(report.bareFloor)}`,
    `Express's own 404 (floor-express.ts): ${rate(floors.express404)}`,
    `Failure floor (floor-failure.tsx: HMAC digest, one pino line, renderToString): ${rate(floors.failure)}, log ${floors.failure.logBytesPerRequest.toFixed(0)} B/req`,
    `Same-output floor (floor-same-output.ts: our answers' bytes, headers and access line on bare Express + pino-http): 404 ${rate(floors.sameOutput404)}; stored page ${rate(floors.sameOutputPage)}`,
    `Stampede: ${stampede.requests} requests at once, each on its own connection, on ${STORED_PATH} just stale: ${stampede.renders} render(s) (distinct "Served at" times), x-cache ${xCache.join(' ')}, p50 ${stampede.p50} ms, p99 ${stampede.p99} ms, errors ${stampede.errors}`,
  );
  return lines;
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
