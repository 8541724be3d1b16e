import { ConfigError, oneOf, type Env } from './config-values.ts';

// LOG_FORMAT: JSON lines for machines (log shippers, the digest tool), pretty ones for a person
// at a dev terminal (server/observe/logger.ts writes either).

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * `pretty` by default in development, `json` otherwise. Production logs JSON lines whatever is
 * asked: pino-pretty is a development dependency (the image has none), and shippers read JSON.
 */
export function logFormat(env: Env, name: string, nodeEnv: string): LogFormat {
  const format = oneOf(env, name, LOG_FORMATS, nodeEnv === 'development' ? 'pretty' : 'json');
  if (format === 'pretty' && nodeEnv === 'production') {
    throw new ConfigError(name, format, 'json in production (pipe the output through pino-pretty to read it pretty)');
  }
  return format;
}
