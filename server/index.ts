// The process entry, and the only place that listens, handles signals and exits:
// config → logger → frontend → createApp → listen; on SIGTERM/SIGINT drain, flush, exit.
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createDigester } from './errors/digest.ts';
import { serializeError } from './errors/serialize-error.ts';
import { createDevFrontend, createProdFrontend, type Frontend } from './frontend.ts';
import { createLogger } from './logger.ts';
import { createDrain } from './shutdown.ts';

/** The project root: this file runs from server/ in dev and from dist/server/ when built. */
function projectRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.endsWith(join('dist', 'server')) ? resolve(here, '../..') : resolve(here, '..');
}

async function createFrontend(config: Config): Promise<Frontend> {
  const root = projectRoot();
  if (!config.isProduction) return createDevFrontend(root);
  const renderer = await import('../client/entry-server.tsx');
  return createProdFrontend(join(root, 'dist/client'), renderer);
}

/** A fault outside any request: log it with a digest, then exit so the supervisor restarts us. */
function handleProcessFaults(config: Config, logger: Logger): void {
  const digest = createDigester(config.digestKey);
  const fatal = (kind: string) => (error: unknown) => {
    logger.fatal({ digest: digest(error), kind, error: serializeError(error) }, 'process fault: exiting');
    logger.flush();
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaughtException'));
  process.on('unhandledRejection', fatal('unhandledRejection'));
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config);
  handleProcessFaults(config, logger);
  if (config.digestKey === undefined && config.isProduction) {
    logger.warn('DIGEST_KEY is not set: digests will differ between processes and releases');
  }

  const frontend = await createFrontend(config);
  const server = createServer();
  const drain = createDrain(server, logger, config.shutdownGraceMs);
  server.on('request', createApp(config, { logger, frontend, isShuttingDown: drain.isShuttingDown }));

  const stop = async (signal: string) => {
    const clean = await drain.drain(signal);
    await frontend.close();
    logger.info({ clean }, 'stopped');
    logger.flush();
    process.exit(clean ? 0 : 1);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port, env: config.nodeEnv }, `listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`);
  });
}

await main();
