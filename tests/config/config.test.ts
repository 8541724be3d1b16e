import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, TRUST_PROXY_ALLOWED } from '../../server/config/config.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { CSP_EXAMPLE_SOURCES } from '../support/csp-examples.ts';
import { EVERY_OTEL_VARIABLE, EVERY_VARIABLE, SENTRY_DSN } from '../support/every-variable.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      nodeEnv: 'development',
      logLevel: 'info',
      logBufferBytes: 256 * 1024,
      streamTimeoutMs: 5000,
      shutdownDelayMs: 2000,
      shutdownGraceMs: 5000,
      trustProxy: false,
      metricsHost: '127.0.0.1',
      compressMaxConcurrent: 64,
      // Under the working directory (the project root under npm scripts, /app in the image), which git ignores.
      databasePath: join(process.cwd(), 'data/app.sqlite'),
      uploadDir: join(process.cwd(), 'data/uploads'),
      filesDir: join(process.cwd(), 'data/files'),
      sentry: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(loadConfig({ DATABASE_PATH: ':memory:' }).databasePath).toBe(':memory:');
    expect(config.postgres).toBeUndefined();
  });

  it('names the PostgreSQL server without its password, on its default port when none is given', () => {
    expect(loadConfig(EVERY_VARIABLE).postgres?.where).toBe('db.internal:6432/app');
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/app' }).postgres).toMatchObject({ where: 'db:5432/app', poolMax: 10 });
  });

  it('names every variable server/config/config.ts and its readers read', () => {
    const source = [
      'config.ts',
      'config-values.ts',
      'body-limits.ts',
      'trust-proxy.ts',
      'cache-config.ts',
      'csp-sources.ts',
      'sentry-config.ts',
      'postgres-config.ts',
      'otel-config.ts',
    ]
      .map((file) => `server/config/${file}`)
      .map((file) => readFileSync(join(ROOT, file), 'utf8'))
      .join('\n');
    const read = new Set(
      [...source.matchAll(/env\.([A-Z][A-Z0-9_]+)|\(env, '([A-Z][A-Z0-9_]+)'|\['(BODY_[A-Z0-9_]+)'/g)].map((m) => m[1] ?? m[2] ?? m[3]),
    );
    expect([...read].sort()).toEqual(Object.keys({ ...EVERY_VARIABLE, ...EVERY_OTEL_VARIABLE }).sort());
  });

  it('reads every variable it documents', () => {
    expect(loadConfig(EVERY_VARIABLE)).toEqual({
      port: 8080,
      host: '127.0.0.1',
      nodeEnv: 'production',
      isProduction: true,
      logLevel: 'warn',
      logFormat: 'json',
      logBufferBytes: 65536,
      streamTimeoutMs: 2500,
      bodyTimeoutMs: 12000,
      body: { maxBytes: 4194304, maxTextBytes: 32768, maxFileBytes: 2097152, maxFiles: 8, maxFields: 100, maxFieldBytes: 16384 },
      cache: {
        maxBytes: 1048576,
        redisUrl: 'redis://redis:6379',
        pagesRedisUrl: 'redis://redis-pages:6379',
        redisTimeoutMs: 25,
        revalidateToken: 'revalidate-token-0123456789',
      },
      shutdownDelayMs: 1500,
      shutdownGraceMs: 4000,
      digestKey: 'k'.repeat(16),
      diagnosticsToken: 't'.repeat(16),
      trustProxy: 'loopback, 10.0.0.0/8',
      publicHostname: 'shop.example.com',
      publicOrigin: 'https://www.example.com',
      allowedOrigins: ['https://forms.example.org', 'https://admin.example.org'],
      sessionSecrets: ['n'.repeat(32), 'o'.repeat(40)],
      session: { idleTimeoutS: 3600, absoluteTimeoutS: 86400 },
      hmrPort: 25000,
      compressResponses: false,
      compressMaxConcurrent: 16,
      hstsMaxAge: 31536000,
      csp: CSP_EXAMPLE_SOURCES,
      release: 'v1.2.3',
      replica: 'web-1',
      failureHookTimeoutMs: 2000,
      logRequestHeaders: ['accept-language', 'referer'],
      sharedAssetsDir: '/srv/assets',
      appBuild: '/srv/app',
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
      databasePath: '/var/lib/app/app.sqlite',
      uploadDir: '/var/tmp/app-uploads',
      filesDir: '/var/lib/app/files',
      postgres: {
        url: EVERY_VARIABLE.DATABASE_URL,
        where: 'db.internal:6432/app',
        poolMax: 20,
        connectTimeoutMs: 1500,
        statementTimeoutMs: 8000,
      },
      sentry: {
        dsn: SENTRY_DSN,
        environment: 'staging',
        tracesSampleRate: 0.25,
        trustUpstreamSampling: true,
        errorSampleRate: 0.5,
        tunnelPath: '/errors/tunnel',
        allowedDsns: [SENTRY_DSN, 'https://other@o0.ingest.sentry.io/456'],
        tunnelTimeoutMs: 3000,
      },
    });
  });

  // HOST and SENTRY_ENVIRONMENT take any value; every other variable refuses a bad one.
  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT="abc": expected an integer from 0 to 65535'],
    [{ PORT: '70000' }, 'Invalid PORT="70000": expected an integer from 0 to 65535'],
    [{ NODE_ENV: 'staging' }, 'Invalid NODE_ENV="staging": expected one of development, production, test'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent'],
    [{ LOG_BUFFER_BYTES: '1MiB' }, 'Invalid LOG_BUFFER_BYTES="1MiB": expected an integer from 32768 to 268435456'],
    // Below four failure lines at their 8 KB bound: the error reserve could not hold one.
    [{ LOG_BUFFER_BYTES: '8192' }, 'Invalid LOG_BUFFER_BYTES="8192": expected an integer from 32768 to 268435456'],
    [{ STREAM_TIMEOUT_MS: '5s' }, 'Invalid STREAM_TIMEOUT_MS="5s": expected an integer from 100 to 600000'],
    [{ BODY_TIMEOUT_MS: '20000' }, 'Invalid BODY_TIMEOUT_MS="20000": expected an integer from 100 to 19000'],
    [{ BODY_MAX_BYTES: '1GB' }, 'Invalid BODY_MAX_BYTES="1GB": expected an integer from 1024 to 536870912'],
    [{ SHUTDOWN_DELAY_MS: 'x' }, 'Invalid SHUTDOWN_DELAY_MS="x": expected an integer from 0 to 600000'],
    [{ SHUTDOWN_GRACE_MS: '-5' }, 'Invalid SHUTDOWN_GRACE_MS="-5": expected an integer from 0 to 600000'],
    [{ DIGEST_KEY: 'short' }, 'Invalid DIGEST_KEY="<redacted>": expected at least 16 characters'],
    [
      { SESSION_SECRET: `${'n'.repeat(32)},too-short` },
      'Invalid SESSION_SECRET="<redacted>": expected secrets of at least 32 bytes, comma-separated, the newest first',
    ],
    [
      { ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path' },
      'Invalid ALLOWED_ORIGINS="https://bad.example/path": expected an origin such as https://shop.example.com or http://localhost:3000 (scheme://host[:port], nothing after)',
    ],
    [{ DIAGNOSTICS_TOKEN: 'short' }, 'Invalid DIAGNOSTICS_TOKEN="<redacted>": expected at least 16 characters'],
    [{ TRUST_PROXY: 'foo' }, `Invalid TRUST_PROXY="foo": expected ${TRUST_PROXY_ALLOWED}`],
    [
      { TRUST_PROXY: 'true' },
      `Invalid TRUST_PROXY="true": expected ${TRUST_PROXY_ALLOWED} (true would let any client choose its address with X-Forwarded-For)`,
    ],
    [{ TRUST_PROXY: '11' }, `Invalid TRUST_PROXY="11": expected ${TRUST_PROXY_ALLOWED}`],
    [{ TRUST_PROXY: '10.0.0.0/33' }, `Invalid TRUST_PROXY="10.0.0.0/33": expected ${TRUST_PROXY_ALLOWED}`],
    [{ TRUST_PROXY: 'loopback, 10.0.0.300' }, `Invalid TRUST_PROXY="loopback, 10.0.0.300": expected ${TRUST_PROXY_ALLOWED}`],
    [
      { PUBLIC_HOSTNAME: 'evil.com/<script>' },
      'Invalid PUBLIC_HOSTNAME="evil.com/<script>": expected a host name such as shop.example.com',
    ],
    [{ COMPRESS_MAX_CONCURRENT: '0' }, 'Invalid COMPRESS_MAX_CONCURRENT="0": expected an integer from 1 to 100000'],
    [{ COMPRESS_MAX_CONCURRENT: '64k' }, 'Invalid COMPRESS_MAX_CONCURRENT="64k": expected an integer from 1 to 100000'],
    [{ HSTS_MAX_AGE: '-1' }, 'Invalid HSTS_MAX_AGE="-1": expected an integer from 0 to 63072000'],
    [
      { RELEASE: 'has space' },
      'Invalid RELEASE="has space": expected 1 to 200 printable ASCII characters without spaces, such as shop@1.4.0',
    ],
    [
      { LOG_REQUEST_HEADERS: 'bad header' },
      'Invalid LOG_REQUEST_HEADERS="bad header": expected a comma-separated list of at most 16 header names, such as referer,x-forwarded-for',
    ],
    [{ SHARED_ASSETS_DIR: 'relative/path' }, 'Invalid SHARED_ASSETS_DIR="relative/path": expected an absolute path such as /srv/assets'],
    [{ APP_BUILD: 'dist' }, 'Invalid APP_BUILD="dist": expected an absolute path such as /srv/assets'],
    [{ METRICS_PORT: '99999' }, 'Invalid METRICS_PORT="99999": expected an integer from 0 to 65535'],
    [{ DATABASE_PATH: 'data/' }, 'Invalid DATABASE_PATH="data/": expected :memory: or a file path such as data/app.sqlite (not a folder)'],
    // The value is never printed: a URL may carry a password.
    [
      { DATABASE_URL: 'mysql://root:hunter2@db/app' },
      'Invalid DATABASE_URL="<redacted>": expected a URL such as postgres://user:password@db:5432/app',
    ],
    [{ DATABASE_URL: 'postgres://db/app', DATABASE_POOL_MAX: '0' }, 'Invalid DATABASE_POOL_MAX="0": expected an integer from 1 to 1000'],
    [
      { SENTRY_DSN: 'not-a-dsn' },
      'Invalid SENTRY_DSN="not-a-dsn": expected a Sentry DSN such as https://publickey@o0.ingest.sentry.io/123',
    ],
    [{ SENTRY_DSN, SENTRY_TRACES_SAMPLE_RATE: '1.5' }, 'Invalid SENTRY_TRACES_SAMPLE_RATE="1.5": expected a number from 0 to 1'],
    [{ SENTRY_DSN, SENTRY_TRUST_UPSTREAM_SAMPLING: 'yes' }, 'Invalid SENTRY_TRUST_UPSTREAM_SAMPLING="yes": expected true or false'],
    [{ SENTRY_DSN, SENTRY_ERROR_SAMPLE_RATE: '2' }, 'Invalid SENTRY_ERROR_SAMPLE_RATE="2": expected a number from 0 to 1'],
    [{ SENTRY_DSN, SENTRY_TUNNEL_PATH: 'no-slash' }, 'Invalid SENTRY_TUNNEL_PATH="no-slash": expected a path such as /monitoring'],
    [
      { SENTRY_DSN, SENTRY_TUNNEL_ALLOWED_DSNS: 'x' },
      'Invalid SENTRY_TUNNEL_ALLOWED_DSNS="x": expected a Sentry DSN such as https://publickey@o0.ingest.sentry.io/123',
    ],
    [{ SENTRY_DSN, SENTRY_TUNNEL_TIMEOUT_MS: '5' }, 'Invalid SENTRY_TUNNEL_TIMEOUT_MS="5": expected an integer from 100 to 60000'],
    [{ REPLICA: 'web 1' }, `Invalid REPLICA="web 1": expected 1 to 42 letters, digits, '.', '_' or '-', such as web-1`],
    [{ REPLICA: 'w'.repeat(43) }, `Invalid REPLICA="${'w'.repeat(43)}": expected 1 to 42 letters, digits, '.', '_' or '-', such as web-1`],
    [{ FAILURE_HOOK_TIMEOUT_MS: '0' }, 'Invalid FAILURE_HOOK_TIMEOUT_MS="0": expected an integer from 1 to 60000'],
    [
      { METRICS_PORT: '0', METRICS_HOST: 'metrics.internal' },
      'Invalid METRICS_HOST="metrics.internal": expected an IP address such as 127.0.0.1, or 0.0.0.0 for every interface',
    ],
    [{ DATABASE_PATH: '/tmp/' }, 'Invalid DATABASE_PATH="/tmp/": expected :memory: or a file path such as data/app.sqlite (not a folder)'],
  ])('refuses %o with a message naming the variable and the value', (env, message) => {
    expect(() => loadConfig(env)).toThrow(expect.objectContaining({ name: 'ConfigError', message }));
  });

  // The boot's one path for every refused value (server/index.ts): two of them through a real
  // process, a plain value and a secret one; the table above checks each message in-process.
  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT="abc": expected an integer from 0 to 65535'],
    [
      { SESSION_SECRET: `${'n'.repeat(32)},too-short` },
      'Invalid SESSION_SECRET="<redacted>": expected secrets of at least 32 bytes, comma-separated, the newest first',
    ],
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
});
