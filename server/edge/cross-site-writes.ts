import type { RequestHandler } from 'express';
import type { Config } from '../config/config.ts';
import { httpError } from '../failures/errors.ts';
import { requestOrigin } from './request-origin.ts';

// A browser request that changes something (any method but GET, HEAD and OPTIONS: RFC 9110
// §9.2.1's safe methods) must come from this site's own pages. Browsers say where a request
// comes from: `Origin` on every such request (Fetch standard, "append a request `Origin`
// header"), and `Sec-Fetch-Site` (Fetch Metadata) on newer ones. A request with neither comes
// from no browser (curl, another server), which a cookie cannot have been forged for: it passes.
// The same rule as Go's net/http CrossOriginProtection and Rails' forgery protection by origin.
// The diagnostics token exempts nothing. After resolveOrigin: the site's origin is decided there.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Fetch Metadata's values for a request another site's page made (same-site includes sibling subdomains). */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

const refused = (why: string) => httpError(403, `Cross-site request refused: ${why}`);

export function refuseCrossSiteWrites(config: Config): RequestHandler {
  const allowed = new Set(config.allowedOrigins);
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    if (origin !== undefined) {
      // `null` is an opaque origin (a sandboxed frame, a file, some redirects): never this site.
      if (origin === requestOrigin(config, res) || allowed.has(origin)) return next();
      return next(refused('its Origin is not this site'));
    }
    const site = req.headers['sec-fetch-site'];
    if (typeof site === 'string' && FOREIGN_SITES.has(site)) return next(refused(`it was sent from a ${site} page`));
    next();
  };
}
