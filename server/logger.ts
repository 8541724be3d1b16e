import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Config } from './config.ts';
import { pathOf } from './url-path.ts';

/** Headers that carry credentials never reach the logs. */
const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers["x-diagnostics-token"]',
  'res.headers["set-cookie"]',
];

/** An incoming id is honoured only when it is short and plain enough to be a log field. */
const SANE_REQUEST_ID = /^[\w.:@-]{1,128}$/;
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { release: config.release },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  // Pretty output is for people at a terminal in dev; everything else gets JSON lines.
  if (config.nodeEnv === 'development') return pino({ ...options, transport: { target: 'pino-pretty' } });
  // Synchronous writes: at exit (SIGTERM, a fault) no line is left in a buffer, and lines stay
  // in order. The soak caught an async write landing after "stopped".
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

/** The access log: one line per request at info (health checks at debug), with its digest. */
export function createHttpLogger(logger: Logger) {
  const accessFields = (res: ServerResponse, value: object) => {
    const digest = (res as ServerResponse & { locals?: { digest?: string } }).locals?.digest;
    // The failure itself was logged once by the error path; this line only points at it.
    const { err: _omitted, ...rest } = value as Record<string, unknown>;
    return digest === undefined ? rest : { ...rest, digest };
  };
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (req) => (HEALTH_PATHS.has(pathOf(req.url)) ? 'debug' : 'info'),
    customSuccessObject: (_req, res, value) => accessFields(res, value),
    customErrorObject: (_req, res, _err, value) => accessFields(res, value),
    customErrorMessage: (_req, res) => `request completed with ${res.statusCode}`,
    serializers: {
      req: (req: { id: string; method: string; url: string; headers: Record<string, unknown>; remoteAddress: string; raw: { ip?: string } }) => ({
        id: req.id,
        method: req.method,
        path: pathOf(req.url),
        headers: req.headers,
        // Express's req.ip: the client's address, through proxies only when TRUST_PROXY says so.
        remoteAddress: req.raw.ip ?? req.remoteAddress,
      }),
    },
  });
}
