import compression from 'compression';
import type { RequestHandler } from 'express';

// Documents, navigation data and JSON errors, compressed as they stream: `compression` negotiates
// the coding (brotli at quality 4, its default for on-the-fly work, or gzip), sets Vary:
// Accept-Encoding, leaves HEAD and 304 alone, and adds the `flush()` that React calls after each
// batch it writes, so the shell still leaves before the streamed sections (server/page-response.ts
// flushes navigation data line by line too). Built assets are not compressed here: they exist
// compressed already (server/precompressed-assets.ts). COMPRESS_RESPONSES=false turns it off
// where the load balancer compresses.

/** Navigation data (shared/route-data.ts) is text, but not in the `compressible` database. */
const NDJSON = /^application\/x-ndjson\b/i;

export function compressResponses(): RequestHandler {
  return compression({
    filter: (req, res) => NDJSON.test(String(res.getHeader('Content-Type') ?? '')) || compression.filter(req, res),
  });
}
