import type { Level } from 'pino';

// Which line is written at which level: the host's one log-level policy. Fastify's rule for
// requests (5xx at error; an expected 4xx is no failure of ours), and one access line per
// request at info that carries a 4xx's reason and a 5xx's digest. LOG_LEVEL then picks what an
// operator sees: `warn` keeps failures and browser reports, drops access lines.
export const LINE_LEVEL = {
  /** The access line of every request, 4xx and 5xx included. */
  access: 'info',
  /** Access lines of successful health probes and asset responses: frequent and uninteresting. */
  quietAccess: 'debug',
  /** A 5xx failure's one line, and the line of an error page that failed while answering one. */
  failure: 'error',
  /** A browser's report of a failure, and a failure to report one to Sentry: worth a look, no outage. */
  report: 'warn',
  /** The app's failure hook threw, rejected or did not settle in time (failures/failure-hook.ts): the hook's problem, not a failure. */
  failureHook: 'warn',
  /** A prefetch's failure: nobody has seen it yet; the click that follows logs it as a failure. */
  prefetchFailure: 'warn',
  /** Refused requests (429), summarised per client key per window. */
  refusals: 'info',
  /** A fault outside any request: the process exits after this line. */
  processFault: 'fatal',
  /** The process's own steps: listening, assets published, shutting down, stopped. */
  lifecycle: 'info',
  /** A setting that works but deserves an operator's look (DIGEST_KEY unset), a grace period cut short, a Node warning. */
  lifecycleWarning: 'warn',
  /** Log lines were dropped while stdout was not read: one line with the counts once it drains. */
  logDrops: 'warn',
  /** The process cannot start (a port in use, an unwritable assets folder): it exits after this line. */
  bootFailure: 'fatal',
} as const satisfies Record<string, Level>;
