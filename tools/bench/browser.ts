// `npm run bench:browser`: the built app as a phone sees it. Lighthouse (13.5, which needs
// Node 22.19: npm scripts run on the project's Node 26) with its mobile preset and simulated
// throttling, in Debian's Chromium, against the production server: each page three times, and the median of each score and
// metric printed: scores, paints, blocking time, layout shift, bytes, back/forward cache.
// Misses against issue 21's targets are printed; only a crash fails the run. `--applied` has
// Chrome apply the same throttling while it loads (Lighthouse's devtools method) instead of
// estimating it from an unthrottled load: what a phone would see, where Lantern's estimate races.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DIAGNOSTICS_HEADER, DIAGNOSTICS_TOKEN, startAppServer } from './app-server.ts';
import { numberFlag, parseFlags } from './args.ts';
import { ROOT } from '../harness/paths.ts';
import { toMarkdown, toText, type Table } from './table.ts';

const run = promisify(execFile);
const LIGHTHOUSE = join(ROOT, 'node_modules/.bin/lighthouse');
/** Debian's Chromium, as the browser tests use it (tests/support/browser.ts); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const ARTIFACT_DIR = join(ROOT, 'artifacts/bench');
/** Median of three, as the issue asks; `--runs` changes it. */
const DEFAULT_RUNS = 3;
/** One Lighthouse run takes 10–20 s here; a hung Chromium must not hold the bench for ever. */
const RUN_TIMEOUT_MS = 120_000;
/** Lighthouse's JSON report of one page is a few MB. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;
/** Of a failed run's stderr, shown. */
const MAX_ERROR_CHARS = 500;

interface Page {
  name: string;
  path: string;
  /** 4xx and 5xx pages: Lighthouse would stop at the status; its SEO audits fail them by design. */
  failure?: boolean;
  headers?: Record<string, string>;
}

interface Result {
  page: Page;
  scores: Record<string, number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bytes: number;
  bfCache: boolean;
}

interface LighthouseReport {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; score: number | null }>;
}

/** Every guide page, as the guide's own tabs link them (the bench knows the app only over HTTP). */
async function guidePages(base: string): Promise<Page[]> {
  const html = await (await fetch(`${base}/guide/streaming`)).text();
  const paths = [...new Set([...html.matchAll(/href="(\/guide\/[\w-]+)"/g)].map((m) => m[1]!))];
  return paths.map((path) => ({ name: path, path }));
}

/** Lighthouse's own advice on a failed trace (NO_NAVSTART and the like) is to run it again. */
const ATTEMPTS = 3;

type Throttling = 'simulate' | 'devtools';

/** One Lighthouse run's report; a run that could not measure the page is tried again, then fails the bench. */
async function lighthouseReport(base: string, page: Page, throttling: Throttling): Promise<LighthouseReport> {
  const args = [
    `--throttling-method=${throttling}`,
    `${base}${page.path}`,
    '--quiet',
    '--output=json',
    '--output-path=stdout',
    '--chrome-flags=--headless=new --no-sandbox',
    ...(page.failure ? ['--ignore-status-code'] : []),
    ...(page.headers ? [`--extra-headers=${JSON.stringify(page.headers)}`] : []),
  ];
  let lastError = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const { stdout } = await run(LIGHTHOUSE, args, {
        env: { ...process.env, CHROME_PATH: CHROMIUM },
        timeout: RUN_TIMEOUT_MS,
        maxBuffer: MAX_REPORT_BYTES,
      });
      const report = JSON.parse(stdout) as LighthouseReport;
      // A page that did not load has no scores: that is a failed run, not a slow page.
      if (report.runtimeError === undefined) return report;
      lastError = report.runtimeError.message;
    } catch (error) {
      // Lighthouse exits non-zero on a runtime error; its stderr says why (its stdout is the whole report).
      lastError = String((error as { stderr?: string }).stderr ?? error)
        .trim()
        .slice(-MAX_ERROR_CHARS);
    }
    console.log(`bench:browser: ${page.path} run failed (attempt ${attempt} of ${ATTEMPTS}): ${lastError}`);
  }
  throw new Error(`Lighthouse could not measure ${page.path}: ${lastError}`);
}

async function lighthouse(base: string, page: Page, throttling: Throttling): Promise<Result> {
  const report = await lighthouseReport(base, page, throttling);
  const value = (audit: string) => report.audits[audit]?.numericValue ?? Number.NaN;
  return {
    page,
    scores: Object.fromEntries(Object.entries(report.categories).map(([name, category]) => [name, category.score ?? 0])),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    bytes: value('total-byte-weight'),
    bfCache: report.audits['bf-cache']?.score === 1,
  };
}

const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Each score and metric's median over the runs (Lantern's estimates move from run to run on their own). */
function median(results: Result[]): Result {
  const of = (pick: (r: Result) => number) => middle(results.map(pick));
  const scores = Object.fromEntries(Object.keys(results[0]!.scores).map((name) => [name, of((r) => r.scores[name]!)]));
  return {
    page: results[0]!.page,
    scores,
    fcpMs: of((r) => r.fcpMs),
    lcpMs: of((r) => r.lcpMs),
    tbtMs: of((r) => r.tbtMs),
    cls: of((r) => r.cls),
    bytes: of((r) => r.bytes),
    bfCache: results.filter((r) => r.bfCache).length * 2 > results.length,
  };
}

/** Issue 21's targets: what each page misses. */
function misses(result: Result): string[] {
  const { scores } = result;
  const missed: string[] = [];
  if (scores.performance! < 0.98) missed.push('performance < 98');
  if (scores.accessibility! < 1) missed.push('accessibility < 100');
  if (result.page.failure) return missed;
  if (result.fcpMs > 1_000) missed.push('FCP > 1.0 s');
  if (result.lcpMs > 1_000) missed.push('LCP > 1.0 s');
  if (scores['best-practices']! < 1) missed.push('best practices < 100');
  if (scores.seo! < 1) missed.push('SEO < 100');
  return missed;
}

function table(results: Result[]): Table {
  const score = (value: number | undefined) => (value === undefined ? '-' : String(Math.round(value * 100)));
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return {
    headers: ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS', 'KiB', 'bfcache', 'targets'],
    numeric: [false, true, true, true, true, true, true, true, true, true, false, false],
    rows: results.map((r) => {
      const missed = misses(r);
      return [
        r.page.name,
        score(r.scores.performance),
        score(r.scores.accessibility),
        score(r.scores['best-practices']),
        r.page.failure ? '(n/a)' : score(r.scores.seo),
        seconds(r.fcpMs),
        seconds(r.lcpMs),
        `${Math.round(r.tbtMs)} ms`,
        r.cls.toFixed(3),
        (r.bytes / 1024).toFixed(0),
        r.bfCache ? 'yes' : 'no',
        missed.length === 0 ? 'pass' : `MISS ${missed.join(', ')}`,
      ];
    }),
  };
}

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2), { values: ['runs'], switches: ['applied'] });
  const runs = numberFlag(flags, 'runs', DEFAULT_RUNS, 9);
  const throttling: Throttling = flags.applied === true ? 'devtools' : 'simulate';
  const server = await startAppServer({ logLevel: 'warn' });
  try {
    const pages: Page[] = [
      { name: '/', path: '/' },
      ...(await guidePages(server.url)),
      { name: '404 page', path: '/no-such-page', failure: true },
      { name: 'server error page', path: '/_diag/server-error', failure: true, headers: { [DIAGNOSTICS_HEADER]: DIAGNOSTICS_TOKEN } },
    ];
    const results: Result[] = [];
    for (const page of pages) {
      const samples: Result[] = [];
      for (let i = 0; i < runs; i++) samples.push(await lighthouse(server.url, page, throttling));
      results.push(median(samples));
      console.log(`bench:browser: ${page.name} done (${runs} runs)`);
    }
    const text = toText(table(results));
    console.log(
      `\nLighthouse ${runs > 1 ? `median of ${runs} runs` : 'one run'}, mobile preset (${throttling === 'simulate' ? 'simulated' : 'applied'} slow 4G, 4× CPU slowdown), Chromium at ${CHROMIUM}\n`,
    );
    console.log(text);
    mkdirSync(ARTIFACT_DIR, { recursive: true });
    writeFileSync(join(ARTIFACT_DIR, 'browser.md'), `${toMarkdown(table(results))}\n`);
    writeFileSync(join(ARTIFACT_DIR, 'browser.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nWrote ${join(ARTIFACT_DIR, 'browser.md')} and browser.json`);
    return 0;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench:browser failed:', error);
    process.exit(1);
  },
);
