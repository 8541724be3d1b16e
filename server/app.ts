import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { createClientErrorsRouter } from './client-errors.ts';
import type { Config } from './config.ts';
import { createDiagnosticsRouter } from './diagnostics.ts';
import { createDigester } from './errors/digest.ts';
import { createErrorHandler } from './errors/error-handler.ts';
import { createFailureRecorder, type Reporter } from './errors/failures.ts';
import { HttpError } from './errors/http-error.ts';
import type { Frontend } from './frontend.ts';
import type { TraceMeta } from '../shared/runtime.ts';
import { createTunnelRouter } from './tunnel.ts';
import { securityHeaders } from './security-headers.ts';
import { createHealthRouter } from './health.ts';
import { createHttpLogger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { createPageHandlers, DATA_PATH } from './pages.ts';
import { NOT_FOUND_MESSAGE } from '../shared/messages.ts';

export interface AppDeps {
  logger: Logger;
  frontend: Frontend;
  /** True once the process has begun to drain; readiness then answers 503. */
  isShuttingDown?: () => boolean;
  /** Sentry, when configured: where 5xx failures are reported, and the request's trace. */
  telemetry?: { report: Reporter; traceMeta: () => TraceMeta | undefined };
  /** Prometheus metrics, when METRICS_PORT is set (served apart, see metrics.ts). */
  metrics?: Metrics;
}

/** A path whose percent-encoding is broken cannot be routed: 400, not a 500 from deep inside. */
const rejectMalformedPath: RequestHandler = (req, _res, next) => {
  try {
    decodeURIComponent(req.path);
    next();
  } catch (cause) {
    next(new HttpError(400, 'Malformed URL: invalid percent-encoding', { cause }));
  }
};

/** The middleware order below is the table of contents of a request. Nothing listens here. */
export function createApp(config: Config, deps: AppDeps): Express {
  const failures = createFailureRecorder({ digester: createDigester(config.digestKey), logger: deps.logger, reporter: deps.telemetry?.report, metrics: deps.metrics });
  const pages = createPageHandlers({ config, failures, frontend: deps.frontend, traceMeta: deps.telemetry?.traceMeta });
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);

  if (deps.metrics) app.use(deps.metrics.middleware);
  app.use(createHttpLogger(deps.logger));
  app.use(createHealthRouter(deps.isShuttingDown ?? (() => false)));
  app.use(securityHeaders(config));
  app.use(rejectMalformedPath);
  app.use(deps.frontend.middleware);
  app.use(createClientErrorsRouter(deps.logger));
  if (config.sentry !== undefined) app.use(createTunnelRouter(config.sentry));
  if (config.diagnosticsToken !== undefined) app.use('/_diag', createDiagnosticsRouter(config));
  app.use(DATA_PATH, pages.data);
  app.use(pages.page);
  app.use(() => {
    throw new HttpError(404, NOT_FOUND_MESSAGE);
  });
  app.use(
    createErrorHandler({
      config,
      failures,
      loadRenderer: () => deps.frontend.loadRenderer(),
    }),
  );
  return app;
}
