import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { HOOK_BUSY_MESSAGE, HOOK_BUSY_REMINDER_MS, HOOK_RESUMED_MESSAGE, isolateFailureHook } from '../../server/failures/failure-hook.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';

// The in-flight cap of the app's failure hook (server/failures/failure-hook.ts) when its calls never
// settle: the cap then holds for good, and the log says so again while it does.

const context = { release: 'shop@1.4.0', replica: 'web-1' };
const failure = (n: number) => ({
  digest: `d${n}`,
  status: 500,
  route: 'r',
  kind: 'loader' as const,
  reqId: `q${n}`,
  error: new Error('x'),
  method: 'GET',
  path: '/',
});
const logged = () => {
  const logs = new ServerLog();
  return { logs, logger: createLogger(loadConfig({ NODE_ENV: 'production' }), logs) };
};

describe('a failure hook whose calls never settle', () => {
  it(`says it is still busy every ${HOOK_BUSY_REMINDER_MS / 1000} s while the cap holds, with the failures not hooked so far`, async () => {
    const { logs, logger } = logged();
    let clock = 0;
    // One call in flight at most, and it never settles: the cap holds for good.
    const hook = isolateFailureHook(
      () => new Promise<void>(() => {}),
      logger,
      10,
      context,
      1,
      () => clock,
    )!;
    await hook(failure(0));
    for (const [n, at] of [
      [1, 0],
      [2, 30_000],
      [3, HOOK_BUSY_REMINDER_MS - 1],
      [4, HOOK_BUSY_REMINDER_MS + 5],
      [5, HOOK_BUSY_REMINDER_MS + 10],
    ] as const) {
      clock = at;
      await hook(failure(n));
    }
    expect(logs.lines.filter((line) => line.msg === HOOK_BUSY_MESSAGE)).toEqual([
      expect.objectContaining({ digest: 'd1', skipped: 1, maxInFlight: 1 }),
      expect.objectContaining({ digest: 'd4', skipped: 4, maxInFlight: 1 }),
    ]);
  });

  it('writes two lines a minute, not two a failure, for a storm held at the cap whose calls settle one by one', async () => {
    const { logs, logger } = logged();
    const settle: (() => void)[] = [];
    const hook = isolateFailureHook(
      () => new Promise<void>((resolve) => settle.push(resolve)),
      logger,
      10_000,
      context,
      1,
      () => 0,
    )!;
    void hook(failure(0));
    for (let round = 1; round <= 10; round++) {
      void hook(failure(round * 2)); // past the cap: counted
      settle.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
      void hook(failure(round * 2 + 1)); // the freed place: hooked
    }
    const said = logs.lines.filter((line) => line.msg === HOOK_BUSY_MESSAGE || line.msg === HOOK_RESUMED_MESSAGE);
    expect(said).toEqual([
      expect.objectContaining({ msg: HOOK_BUSY_MESSAGE, skipped: 1 }),
      expect.objectContaining({ msg: HOOK_RESUMED_MESSAGE, skipped: 1 }),
    ]);
    for (const resolve of settle) resolve();
  });
});
