// The soak's uploads (docs/forms.md, "Files and their limits"): with the hard ceiling at 128 MiB,
// eight clients upload 100 MB each at once to the host serving the bench's app (its api/upload
// route reads the form with the host's helper, files to disk). Peak RSS stays within the idle
// figure + 64 MB, every upload is answered with its whole size, and UPLOAD_DIR is empty after.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppServer } from '../bench/app-server.ts';
import { BENCH_APP_BUILD, ensureBenchApp } from '../bench/bench-app.ts';
import { memoryMb } from '../bench/proc.ts';
import { sleep } from '../harness/net.ts';
import { postStreamedUpload } from '../harness/streamed-upload.ts';
import type { Check } from './checks.ts';
import { SETTLE_MS } from './sample.ts';

const MB = 1_000_000;
const MIB = 1_048_576;
const CLIENTS = 8;
const UPLOAD_BYTES = 100 * MB;
/** The bounds: the hard ceiling for the run, and the peak's growth over idle. */
const CEILING_BYTES = 128 * MIB;
const PEAK_GROWTH_MB = 64;
/**
 * The warm-up: one burst of smaller files first, as a replica that takes uploads has had. The
 * first burst after a cold start grows RSS by about 65 MB once and keeps it (V8 collects the
 * chunks at its external-memory trigger), whatever the files' sizes; the idle figure is after it.
 */
const WARM_UP_BYTES = 10 * MB;
/** Each answer's folder goes when its connection has closed: polled this long at most. */
const CLEAN_UP_MS = 5_000;

async function burst(url: string, size: number): Promise<unknown[]> {
  const answers = await Promise.all(Array.from({ length: CLIENTS }, () => postStreamedUpload(`${url}/api/upload`, size)));
  return Promise.all(answers.map(async (res) => ({ status: res.status, body: (await res.json()) as unknown })));
}

async function leftIn(dir: string): Promise<string[]> {
  for (const started = Date.now(); readdirSync(dir).length > 0 && Date.now() - started < CLEAN_UP_MS;) await sleep(50);
  return readdirSync(dir);
}

export async function uploadChecks(): Promise<Check[]> {
  ensureBenchApp();
  const uploadDir = mkdtempSync(join(tmpdir(), 'soak-uploads-'));
  const server = await startAppServer({
    logLevel: 'warn',
    appBuild: BENCH_APP_BUILD,
    env: { BODY_MAX_BYTES: String(CEILING_BYTES), BODY_MAX_FILE_BYTES: String(CEILING_BYTES), UPLOAD_DIR: uploadDir },
  });
  try {
    console.log(`soak: uploads, ${CLIENTS} × ${UPLOAD_BYTES / MB} MB at once (BODY_MAX_BYTES=${CEILING_BYTES})`);
    const coldMb = memoryMb(server.pid, 'VmRSS');
    await burst(server.url, WARM_UP_BYTES);
    await sleep(SETTLE_MS);
    const idleMb = memoryMb(server.pid, 'VmRSS');
    // Linux resets the peak (VmHWM) to the current RSS on "5" (proc(5), /proc/pid/clear_refs).
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const answers = await burst(server.url, UPLOAD_BYTES);
    const peakMb = memoryMb(server.pid, 'VmHWM');
    const expected = { status: 200, body: { fields: [['title', 'kept']], sizes: [UPLOAD_BYTES], tooLarge: 0 } };
    const wrong = answers.filter((answer) => JSON.stringify(answer) !== JSON.stringify(expected));
    const left = await leftIn(uploadDir);
    const growthMb = peakMb - idleMb;
    return [
      {
        name: `${CLIENTS} uploads of ${UPLOAD_BYTES / MB} MB at once are answered with their whole size`,
        pass: wrong.length === 0,
        detail: wrong.length === 0 ? `${CLIENTS} answered 200` : `${wrong.length} not: ${JSON.stringify(wrong[0]).slice(0, 300)}`,
      },
      {
        name: `peak RSS during them stays within idle + ${PEAK_GROWTH_MB} MB`,
        pass: growthMb <= PEAK_GROWTH_MB,
        detail: `cold ${coldMb.toFixed(1)} MB, idle after a warm-up burst ${idleMb.toFixed(1)} MB, peak ${peakMb.toFixed(1)} MB (+${growthMb.toFixed(1)} MB)`,
      },
      {
        name: 'the uploads leave no file behind in UPLOAD_DIR',
        pass: left.length === 0,
        detail: left.length === 0 ? 'empty' : `${left.length} left: ${left.slice(0, 3).join(', ')}`,
      },
    ];
  } finally {
    await server.stop();
    rmSync(uploadDir, { recursive: true, force: true });
  }
}
