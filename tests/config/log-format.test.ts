import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { ROOT } from '../../tools/harness/paths.ts';

// LOG_FORMAT: pretty lines for a person at a dev terminal, JSON lines for everything else, and
// always JSON in production (server/config/log-format.ts). The dev server's own pretty lines are
// checked where it runs (tests/assets/dev-server.test.ts).

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
    ['json', (out: string) => expect(JSON.parse(out)).toMatchObject({ level: 30, msg: 'one line' })],
    ['pretty', (out: string) => expect(out).toMatch(/^\[[\d:.]+\] INFO: one line\n/)],
  ] as const)('a development process asked for %s writes its stdout so', (format, check) => {
    // The process's own logger on its own stdout (server/observe/logger.ts), as `npm run dev` makes it.
    const script = `
      import { loadConfig } from './server/config/config.ts';
      import { createLogger, flushLogs } from './server/observe/logger.ts';
      const logger = createLogger(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: '${format}' }));
      logger.info('one line');
      await flushLogs(logger);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 15_000 });
    expect(run.stderr).toBe('');
    check(run.stdout);
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
