import type { TraceContext } from '../../shared/log-line.ts';
import type { RequestTarget } from '../observe/url-path.ts';
import type { Recorded } from '../failures/recorder.ts';

// What the host keeps on `res.locals` for one response, typed for every middleware by
// declaration merging (the way @types/express-serve-static-core invites: `Express.Locals`).
// The app's pages never see these; they are the host's own bookkeeping.

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's types declare Locals in this global namespace
  namespace Express {
    interface Locals {
      /** The request's path and query as sent, split once at the edge (request-target.ts). */
      target?: RequestTarget;
      /** The request's origin, decided once for every same-origin decision (request-origin.ts). */
      origin?: string;
      /** The request's host name, valid for a URL; error pages show it only if it is a plain host name. */
      hostname?: string;
      /** The request came over https (trusted protocol included) or PUBLIC_ORIGIN is https (request-origin.ts). */
      secure?: boolean;
      /** The per-request CSP nonce (security-headers.ts); React puts it on every script it writes. */
      cspNonce?: string;
      /**
       * A bounded label for the route that answered (`page:<id>`, `data:<id>`, `assets`, the
       * tunnel's path...): the access line's `route` and the metrics' label. Never a raw path.
       */
      route?: string;
      /** The response is an API's: errors answer JSON, not the HTML error page. */
      api?: boolean;
      /** Failures already recorded for this response, by thrown value: each is logged once (failures/recorder.ts). */
      failures?: Map<unknown, Recorded>;
      /** The first 5xx digest, for the access line. */
      digest?: string;
      /** The first 4xx's reason, for the access line (an expected 4xx gets no line of its own). */
      rejection?: string;
      /** The coding of the precompressed asset file being sent (precompressed-assets.ts). */
      contentCoding?: string;
      /** The request says it is a prefetch: its failures are logged at warn and not reported (recorder.ts). */
      prefetch?: boolean;
      /** With tracing on, the request's span as the access line read it at the start (access-log.ts). */
      trace?: TraceContext;
      /** The error page itself failed and that was logged: once per response. */
      secondaryLogged?: boolean;
    }
  }
}
