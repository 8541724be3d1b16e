// What the digest CLI's tests read: a log the real server wrote (three failures, a 404, a
// browser report) with lines that are not JSON around it, in a temp folder.
import request from 'supertest';
import { expect } from 'vitest';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { digestOf, jsonLines, tempDir, writeLog } from './digest-cli.ts';
import { createTestApp, DIAG } from './test-app.ts';

export const GARBAGE = [
  'npm WARN config something',
  'Error: a raw stack printed by accident',
  '    at nowhere (x.js:1:1)',
  '{"cut short by a crash":',
];
export const SPARKLINE = /[▁▂▃▄▅▆▇█]{24}/;
/** A browser's digest: `c-` and base36 (shared/client-digest.ts). */
export const CLIENT_DIGEST = 'c-1k2j3h4g5f6d';
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export interface Failure {
  digest: string;
  reqIds: string[];
}

/** `times` requests to one diagnostic route: the same failure, so one digest. */
export async function fail(app: Parameters<typeof request>[0], path: string, times: number): Promise<Failure> {
  const responses = [];
  for (let i = 0; i < times; i++) responses.push(await request(app).get(path).set(DIAG).expect(500));
  const digests = new Set(responses.map(digestOf));
  expect(digests.size).toBe(1);
  return { digest: [...digests][0]!, reqIds: responses.map((res) => res.headers['x-request-id'] as string) };
}

export interface LoggedFailures {
  dir: string;
  log: string;
  logText: string;
  page: Failure;
  api: Failure;
  async: Failure;
}

export async function loggedFailures(): Promise<LoggedFailures> {
  const { app, logs } = createTestApp();
  const page = await fail(app, '/_diag/server-error', 3);
  const api = await fail(app, '/_diag/api-error', 2);
  const async = await fail(app, '/_diag/async-error', 1);
  await request(app).get('/no-such-page').expect(404);
  await request(app)
    .post(CLIENT_ERRORS_PATH)
    .send({
      digest: CLIENT_DIGEST,
      kind: 'uncaught',
      type: 'TypeError',
      message: 'x is undefined',
      stack: 'render@http://host/assets/a.js:1:2',
      path: '/_diag/server-error',
      pageReqId: page.reqIds[0],
    })
    .expect(204);
  const dir = tempDir();
  const logText = [GARBAGE[0], jsonLines(logs.lines), ...GARBAGE.slice(1)].join('\n') + '\n';
  const log = writeLog(dir, 'app.log', logText);
  return { dir, log, logText, page, api, async };
}
