import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { createRedisConnection, OUTAGE_MESSAGE, RECOVERED_MESSAGE, type RedisConnection } from '../../server/fleet/redis-connection.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { sleep } from '../../tools/harness/net.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { startRedis, type RunningRedis } from '../support/redis-server.ts';

// What the shared store's connection tells an operator (server/fleet/store-reachability.ts):
// "unreachable" once per outage, when a connection attempt fails or nothing has answered for
// STALLED_AFTER_MS, and "reachable again" once when Redis answers after it. A slow patch (calls
// timing out for a moment) and a connection dropped and made again at once are counted, not told.
// A real redis-server, stopped (SIGSTOP), resumed, killed and started again on its port.

/** REDIS_TIMEOUT_MS's default: a stopped Redis fails each call after this. */
const TIMEOUT_MS = 50;
/** A slow patch: several calls' timeouts, well short of the stall that is an outage. */
const SLOW_PATCH_MS = 300;
/** Between two calls of the test's traffic: a replica under light load. */
const CALL_GAP_MS = 10;
/** Answered calls that show Redis is back in service, not one lucky reply. */
const ANSWERS_BACK = 5;
/** Redis is restarted at once; the connection retries at most every 2 s. */
const WITHIN_MS = 10_000;

const UNREACHABLE = 'unreachable';
const REACHABLE = 'reachable again';

interface Replica {
  connection: RedisConnection;
  log: ServerLog;
  /** The outage and recovery lines, in order. */
  told(): string[];
  /** Resolves once `count` more calls were answered than so far. */
  answered(count?: number): Promise<void>;
  stop(): Promise<void>;
}

let redis: RunningRedis | undefined;
let replica: Replica | undefined;
afterEach(async () => {
  await replica?.stop();
  await redis?.kill();
  replica = redis = undefined;
});

/** One connection as a replica holds it, with a call every CALL_GAP_MS, as requests would make them. */
async function connectedReplica(url: string): Promise<Replica> {
  const log = new ServerLog();
  const logger = createLogger(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'debug' }), log);
  const connection = createRedisConnection({ url, timeoutMs: TIMEOUT_MS, logger });
  let running = true;
  let answers = 0;
  const traffic = (async () => {
    while (running) {
      if ((await connection.bounded((client) => client.ping(), 'fallback')) === 'PONG') answers++;
      await sleep(CALL_GAP_MS);
    }
  })();
  const answered = async (count = ANSWERS_BACK) => {
    const target = answers + count;
    await expect.poll(() => answers, { timeout: WITHIN_MS }).toBeGreaterThanOrEqual(target);
  };
  await answered(1);
  return {
    connection,
    log,
    told: () =>
      log.lines
        .filter((line) => line.msg === OUTAGE_MESSAGE || line.msg === RECOVERED_MESSAGE)
        .map((line) => (line.msg === OUTAGE_MESSAGE ? UNREACHABLE : REACHABLE)),
    answered,
    async stop() {
      running = false;
      await traffic;
      await connection.close();
    },
  };
}

const toldLine = (r: Replica, message: string, nth: number) =>
  r.log.waitFor((line) => line.msg === message && r.log.lines.filter((other) => other.msg === message).length >= nth, WITHIN_MS);

describe("the shared store's outage lines", () => {
  it('a slow patch says nothing, and does not silence the real outage after it: one unreachable, one reachable again', async () => {
    redis = await startRedis();
    const port = Number(new URL(redis.url).port);
    replica = await connectedReplica(redis.url);

    redis.pause();
    await sleep(SLOW_PATCH_MS);
    redis.resume();
    await replica.answered();
    expect(replica.told()).toEqual([]);

    await redis.kill();
    await toldLine(replica, OUTAGE_MESSAGE, 1);
    redis = await startRedis(port);
    await toldLine(replica, RECOVERED_MESSAGE, 1);
    await replica.answered();
    expect(replica.told()).toEqual([UNREACHABLE, REACHABLE]);
  });

  it('a Redis that answers nothing, its connection open, is unreachable until it answers: each stall told once, twice over', async () => {
    redis = await startRedis();
    replica = await connectedReplica(redis.url);
    for (let stall = 1; stall <= 2; stall++) {
      redis.pause();
      await toldLine(replica, OUTAGE_MESSAGE, stall);
      redis.resume();
      await toldLine(replica, RECOVERED_MESSAGE, stall);
      await replica.answered();
    }
    expect(replica.told()).toEqual([UNREACHABLE, REACHABLE, UNREACHABLE, REACHABLE]);
    const outage = replica.log.lines.find((line) => line.msg === OUTAGE_MESSAGE)!;
    expect(outage.level).toBe(40);
    expect(outage.error).toMatchObject({ message: expect.stringMatching(/^no answer for \d+ ms$/) });
  });

  it('a connection the server drops and the client makes again at its first attempt says nothing', async () => {
    redis = await startRedis();
    replica = await connectedReplica(redis.url);
    const admin = await createClient({ url: redis.url }).connect();
    try {
      // Every connection but the admin's: as a Redis restarting its clients, or an idle timeout.
      expect(await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'])).toBeGreaterThan(0);
    } finally {
      admin.destroy();
    }
    await replica.answered();
    expect(replica.told()).toEqual([]);
  });
});
