import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig, TRUST_PROXY_ALLOWED } from '../server/config.ts';
import { ROOT } from '../tools/harness/paths.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, nodeEnv: 'development', logLevel: 'info', streamTimeoutMs: 5000, shutdownDelayMs: 2000, shutdownGraceMs: 5000, trustProxy: false, sentry: undefined });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable it documents', () => {
    const config = loadConfig({
      PORT: '8080', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'warn', STREAM_TIMEOUT_MS: '2500',
      SHUTDOWN_GRACE_MS: '4000', TRUST_PROXY: 'loopback, 10.0.0.0/8', PUBLIC_HOSTNAME: 'Shop.Example.com', RELEASE: 'v1.2.3',
    });
    expect(config).toMatchObject({
      port: 8080, host: '127.0.0.1', isProduction: true, logLevel: 'warn', streamTimeoutMs: 2500,
      shutdownGraceMs: 4000, trustProxy: 'loopback, 10.0.0.0/8', publicHostname: 'shop.example.com', release: 'v1.2.3',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT="abc": expected an integer from 0 to 65535'],
    [{ PORT: '70000' }, 'Invalid PORT="70000": expected an integer from 0 to 65535'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent'],
    [{ NODE_ENV: 'staging' }, 'Invalid NODE_ENV="staging": expected one of development, production, test'],
    [{ STREAM_TIMEOUT_MS: '5s' }, 'Invalid STREAM_TIMEOUT_MS="5s": expected an integer from 100 to 600000'],
    [{ DIGEST_KEY: 'short' }, 'Invalid DIGEST_KEY="<redacted>": expected at least 16 characters'],
    [{ PUBLIC_HOSTNAME: 'evil.com/<script>' }, 'Invalid PUBLIC_HOSTNAME="evil.com/<script>": expected a host name such as shop.example.com'],
    [{ TRUST_PROXY: 'foo' }, `Invalid TRUST_PROXY="foo": expected ${TRUST_PROXY_ALLOWED}`],
    [{ TRUST_PROXY: 'true' }, `Invalid TRUST_PROXY="true": expected ${TRUST_PROXY_ALLOWED} (true would let any client choose its address with X-Forwarded-For)`],
    [{ TRUST_PROXY: '11' }, `Invalid TRUST_PROXY="11": expected ${TRUST_PROXY_ALLOWED}`],
    [{ TRUST_PROXY: '10.0.0.0/33' }, `Invalid TRUST_PROXY="10.0.0.0/33": expected ${TRUST_PROXY_ALLOWED}`],
    [{ TRUST_PROXY: 'loopback, 10.0.0.300' }, `Invalid TRUST_PROXY="loopback, 10.0.0.300": expected ${TRUST_PROXY_ALLOWED}`],
    [{ SENTRY_DSN: 'http://public@127.0.0.1:9/1', SENTRY_TRUST_UPSTREAM_SAMPLING: 'yes' }, 'Invalid SENTRY_TRUST_UPSTREAM_SAMPLING="yes": expected true or false'],
    [{ SENTRY_DSN: 'http://public@127.0.0.1:9/1', SENTRY_ERROR_SAMPLE_RATE: '2' }, 'Invalid SENTRY_ERROR_SAMPLE_RATE="2": expected a number from 0 to 1'],
  ])('stops the process before it listens on %o, with exit code 1 and one line', (env, message) => {
    const run = spawnSync('node', ['dist/server/index.js'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', ...env },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`${message}\n`);
    expect(run.stdout).not.toContain('listening');
  });

  it.each([
    ['false', false],
    ['0', false],
    ['2', 2],
    ['loopback', 'loopback'],
    ['loopback,10.0.0.0/8, fd00::/8', 'loopback, 10.0.0.0/8, fd00::/8'],
    ['10.1.2.3/255.255.0.0', '10.1.2.3/255.255.0.0'],
  ])('accepts TRUST_PROXY=%s as a hop count or addresses', (raw, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(trustProxy);
  });
});
