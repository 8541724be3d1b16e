// The metrics server listens on loopback unless METRICS_HOST says otherwise (server/config/config.ts
// says why): reachable on the address it was given, refused on every other. Linux routes all of
// 127.0.0.0/8 to the loopback interface, so 127.0.0.2 stands for "another address of this host".
import { afterEach, describe, expect, it } from 'vitest';
import { fetchOnce } from '../../tools/harness/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/** Whether a scrape of `address` gets the metrics, or the connection is refused. */
async function scrape(address: string, port: number): Promise<'metrics' | 'refused'> {
  try {
    const res = await fetchOnce(`http://${address}:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('http_request_duration_seconds');
    return 'metrics';
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    return 'refused';
  }
}

describe('the metrics server listens where METRICS_HOST says, loopback by default', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });

  it.each([
    ['unset', undefined, '127.0.0.1', { '127.0.0.1': 'metrics', '127.0.0.2': 'refused' }],
    ['127.0.0.2', '127.0.0.2', '127.0.0.2', { '127.0.0.1': 'refused', '127.0.0.2': 'metrics' }],
    ['0.0.0.0 (every interface)', '0.0.0.0', '0.0.0.0', { '127.0.0.1': 'metrics', '127.0.0.2': 'metrics' }],
  ])('METRICS_HOST %s', async (_name, metricsHost, logged, reachable) => {
    server = await startServer({ METRICS_PORT: '0', ...(metricsHost === undefined ? {} : { METRICS_HOST: metricsHost }) });
    const line = await server.logs.waitFor((l) => typeof l.metricsPort === 'number');
    expect(line).toMatchObject({ metricsHost: logged, msg: `metrics on http://${logged}:${line.metricsPort as number}/metrics` });
    const port = line.metricsPort as number;
    const seen: Record<string, string> = {};
    for (const address of Object.keys(reachable)) seen[address] = await scrape(address, port);
    expect(seen).toEqual(reachable);
  });
});
