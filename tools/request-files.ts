// `npm run request-files`: which of the repository's files run on one request of each kind (a
// page, a stored page's HIT, a failure, a form post), counted from V8's coverage of that request
// alone (docs/architecture.md, "What runs on a request"). The host runs from its sources (tsx
// keeps each module a script of its own) over the demo's built app, whose bundle is mapped back
// to its sources through its source map. Left out: node_modules, the app's route modules (the
// app's own code, not the host's) and the middleware every request passes (the edge and observe
// rooms, listed once in server/app.ts and apart in the doc). `--json` prints the lists as JSON.
import { Session } from 'node:inspector/promises';
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { createApp } from '../server/app.ts';
import { loadAppBuild } from '../server/assets/app-build.ts';
import { createProdFrontend } from '../server/assets/frontend.ts';
import { loadConfig } from '../server/config/config.ts';
import { createLogger } from '../server/observe/logger.ts';
import { openDatabase } from '../server/data/database.ts';
import reactRouterConfig from '../react-router.config.ts';
import { ROOT } from './harness/paths.ts';

/** The rooms whose middleware every request passes (server/app.ts mounts them first). */
const EVERY_REQUEST = ['server/edge/', 'server/observe/'];
const TOKEN = 'request-files-token-0123456789abcdef';
const FORM = 'application/x-www-form-urlencoded';
// supertest listens on a new port per request: the stored page's key holds the origin unless PUBLIC_ORIGIN names it.

type Coverage = Awaited<ReturnType<typeof takeCoverage>>;
async function takeCoverage(session: Session) {
  return (await session.post('Profiler.takePreciseCoverage')).result;
}

/** Offsets of a script's text to line and column (0-based), for its source map. */
function positions(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, column: offset - starts[low]! };
  };
}

const maps = new Map<string, { map: SourceMap; at: ReturnType<typeof positions>; dir: string } | null>();
/** A built file's source map, if it has one beside it. */
function mapOf(path: string) {
  if (!maps.has(path)) {
    try {
      const map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
      maps.set(path, { map, at: positions(readFileSync(path, 'utf8')), dir: join(path, '..') });
    } catch {
      maps.set(path, null);
    }
  }
  return maps.get(path)!;
}

/** The repository files (relative to its root) whose functions ran: a built file's through its source map. */
function filesRun(coverage: Coverage): Set<string> {
  const files = new Set<string>();
  for (const script of coverage) {
    if (!script.url.startsWith('file://')) continue;
    const path = fileURLToPath(script.url);
    const mapped = mapOf(path);
    for (const fn of script.functions) {
      // A function's first range is the whole function, with its count of calls.
      const whole = fn.ranges[0];
      if (whole === undefined || whole.count === 0 || (fn.functionName === '' && fn.ranges.length === 1 && whole.startOffset === 0))
        continue;
      let source = path;
      if (mapped) {
        const { line, column } = mapped.at(whole.startOffset);
        const entry = mapped.map.findEntry(line, column) as { originalSource?: string };
        if (entry.originalSource === undefined) continue;
        source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : join(mapped.dir, entry.originalSource);
      }
      files.add(relative(ROOT, source));
    }
  }
  return files;
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DIAGNOSTICS_TOKEN: TOKEN,
    DATABASE_PATH: ':memory:',
    PUBLIC_ORIGIN: 'https://files.example',
  });
  const logger = createLogger(config, { write: () => undefined });
  const build = await loadAppBuild(join(ROOT, 'dist'));
  const { db } = await openDatabase(config, build.migrations);
  const app = createApp(config, { logger, db, frontend: createProdFrontend(build) });
  const appDirectory = `${reactRouterConfig.appDirectory}/`;
  const isAppRoute = (file: string) => file.startsWith(appDirectory) && !file.startsWith(`${appDirectory}router/`);
  const counted = (file: string) =>
    !file.startsWith('node_modules/') &&
    !file.startsWith('..') &&
    // This script itself, the request's driver.
    !file.startsWith('tools/') &&
    !isAppRoute(file) &&
    !EVERY_REQUEST.some((room) => file.startsWith(room));

  const kinds: Record<string, () => Promise<request.Response>> = {
    page: () => request(app).get('/guestbook').expect(200),
    'stored page (HIT)': () => request(app).get('/about').expect(200),
    failure: () => request(app).get('/_diag/server-error').set('x-diagnostics-token', TOKEN).expect(500),
    'form post': () => request(app).post('/guestbook').type(FORM).send(`name=Files&message=${Math.random()}`).expect(303),
  };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const result: Record<string, { files: string[]; everyRequest: string[] }> = {};
  for (const [kind, run] of Object.entries(kinds)) {
    // Twice first: what runs once per process (lazy imports, caches filling, the page stored) is not the request's.
    await run();
    await run();
    await takeCoverage(session);
    const answer = await run();
    if (kind.includes('HIT') && answer.headers['x-cache'] !== 'HIT')
      throw new Error(`${kind}: answered ${String(answer.headers['x-cache'])}`);
    const ran = [...filesRun(await takeCoverage(session))].sort();
    result[kind] = { files: ran.filter(counted), everyRequest: ran.filter((file) => EVERY_REQUEST.some((room) => file.startsWith(room))) };
  }
  session.disconnect();
  await db.destroy();
  if (json) return void console.log(JSON.stringify(result, null, 2));
  for (const [kind, { files, everyRequest }] of Object.entries(result)) {
    console.log(`${kind}: ${files.length} files\n${files.map((file) => `  ${file}`).join('\n')}`);
    console.log(`  (and the middleware every request passes: ${everyRequest.join(', ')})`);
  }
}

await main();
