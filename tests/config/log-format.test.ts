import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { ROOT } from '../../tools/harness/paths.ts';

// LOG_FORMAT: pretty lines for a person at a dev terminal, JSON lines for everything else, and
// always JSON in production (server/config/log-format.ts). The dev server's own lines in each format
// are checked where it runs (tests/assets/dev-server.test.ts, tests/e2e/dev-loop.test.ts).

describe('LOG_FORMAT', () => {
  it.each([
    ['development', 'pretty'],
    ['test', 'json'],
    ['production', 'json'],
  ] as const)('defaults to what NODE_ENV=%s wants: %s', (nodeEnv, format) => {
    expect(loadConfig({ NODE_ENV: nodeEnv }).logFormat).toBe(format);
  });

  it('lets development log JSON lines, for the digest tool or a log shipper', () => {
    expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
  });

  it.each([
    [{ LOG_FORMAT: 'yaml' }, 'Invalid LOG_FORMAT="yaml": expected one of json, pretty'],
    [
      { NODE_ENV: 'production', LOG_FORMAT: 'pretty' },
      'Invalid LOG_FORMAT="pretty": expected json in production (pipe the output through pino-pretty to read it pretty)',
    ],
  ])('refuses %o with a message naming the variable and the value', (env, message) => {
    expect(() => loadConfig(env)).toThrow(expect.objectContaining({ name: 'ConfigError', message }));
  });

  it('stops a production server asked for pretty logs before it listens, with exit code 1 and one line', () => {
    const run = spawnSync('node', ['dist/server/index.js'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', LOG_FORMAT: 'pretty' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'Invalid LOG_FORMAT="pretty": expected json in production (pipe the output through pino-pretty to read it pretty)\n',
    );
    expect(run.stdout).not.toContain('listening');
  });
});
