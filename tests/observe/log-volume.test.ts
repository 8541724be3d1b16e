import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { LEVEL, type LogLine } from '../../shared/log-line.ts';
import { createTestApp } from '../support/test-app.ts';

const PATH = '/api/client-errors';
const REPORT = { kind: 'caught', digest: 'c-1a2b3c4d5e6f', type: 'TypeError', message: 'x is undefined', path: '/checkout' };
/** The limit of server/telemetry/client-errors.ts: 10 reports a minute per client. */
const ACCEPTED = 10;

const refusedLines = (lines: LogLine[]) => lines.filter((line) => line.msg === 'requests refused');

describe('log volume per client', () => {
  it('100 refused reports write one line when refusals start and one with the count, nothing per request', async () => {
    const host = createTestApp({ LOG_LEVEL: 'info' });
    const { logs, refusals } = host;
    const agent = request(await host.listen());
    for (let i = 0; i < ACCEPTED; i++) await agent.post(PATH).send(REPORT).expect(204);
    const linesBefore = logs.lines.length;
    const refused = await Promise.all(Array.from({ length: 100 }, () => agent.post(PATH).send(REPORT)));
    expect(refused.map((res) => res.status)).toEqual(Array(100).fill(429));

    const during = logs.lines.slice(linesBefore);
    expect(during).toEqual([expect.objectContaining({ msg: 'requests refused', level: LEVEL.info, route: PATH, status: 429, count: 1 })]);
    expect(during[0]!.key).toMatch(/127\.0\.0\.1/);

    refusals.flush(); // what the process does at exit, or the window's end does after a minute
    const all = refusedLines(logs.lines);
    expect(all).toHaveLength(2);
    expect(all.reduce((sum, line) => sum + (line.count as number), 0)).toBe(100);
    expect(logs.lines.slice(linesBefore)).toHaveLength(2);
    await host.close();
  });

  it('summarises each window when it closes, and opens a new one for refusals after it', async () => {
    const windowMs = 150;
    const { app, logs } = createTestApp({ LOG_LEVEL: 'info' }, {}, { refusalWindowMs: windowMs });
    const agent = request(app);
    for (let i = 0; i < ACCEPTED; i++) await agent.post(PATH).send(REPORT).expect(204);
    for (let i = 0; i < 5; i++) await agent.post(PATH).send(REPORT).expect(429);
    // How the five fall into 150 ms windows depends on how busy the machine is ([1, 4] when
    // idle); however they fall, each window opens with one line and closes with its count.
    const counted = () => refusedLines(logs.lines).reduce((sum, line) => sum + (line.count as number), 0);
    await logs.waitFor(() => counted() === 5, 5_000);
    expect(refusedLines(logs.lines)[0]!.count).toBe(1);
    await agent.post(PATH).send(REPORT).expect(429); // the limiter's minute is not over
    // Its window had closed: this refusal opens a new one, logged at once.
    expect(
      refusedLines(logs.lines)
        .map((line) => line.count)
        .at(-1),
    ).toBe(1);
    expect(counted()).toBe(6);
  });

  it('keeps the one access line of a report rejected for anything but the limit', async () => {
    const { app, logs } = createTestApp({ LOG_LEVEL: 'info' });
    const res = await request(app).post(PATH).set('content-type', 'application/json').send('{"broken').expect(400);
    expect(logs.access(res.headers['x-request-id'] as string)).toMatchObject({ status: 400, reason: expect.any(String) });
    expect(refusedLines(logs.lines)).toEqual([]);
  });
});
