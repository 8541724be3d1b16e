import { readdirSync } from 'node:fs';
import { extname } from 'node:path';
import express, { type RequestHandler } from 'express';
import { CODING_SUFFIXES, negotiateCoding, type Coding } from './accept-encoding.ts';

// The build writes `<file>.br` and `<file>.gz` beside each text asset (the `precompressAssets` plugin in vite.config.ts).
// This picks the file for the request's Accept-Encoding and lets serve-static (express.static)
// send it: ETag and Last-Modified of that file, 304, HEAD, Range over the encoded bytes (RFC
// 9110 §14: ranges apply to the selected representation), Content-Length. Nothing is
// compressed per request.

type StaticOptions = Parameters<typeof express.static>[1];

/** Which codings each file of `dir` has a compressed copy in, read once: the build is fixed. */
export function codingsIn(dir: string): Map<string, Set<Coding>> {
  const names = new Set(readdirSync(dir));
  const found = new Map<string, Set<Coding>>();
  for (const name of names) {
    const codings = (Object.keys(CODING_SUFFIXES) as Coding[]).filter((coding) => names.has(name + CODING_SUFFIXES[coding]));
    if (codings.length > 0) found.set(name, new Set(codings));
  }
  return found;
}

const CODING_OF_SUFFIX = new Map<string, string>(Object.entries(CODING_SUFFIXES).map(([coding, suffix]) => [suffix, coding]));

/** express.static over `dir`, serving the compressed copy the client accepts where one exists. */
export function servePrecompressed(dir: string, options: StaticOptions): RequestHandler {
  const codings = codingsIn(dir);
  const serve = express.static(dir, {
    ...options,
    setHeaders(res, path, stat) {
      const coding = CODING_OF_SUFFIX.get(extname(path));
      // Set before send picks a type: it would name the .br file's own (application/x-brotli).
      if (coding !== undefined && res.locals.contentCoding === coding) {
        res.setHeader('Content-Encoding', coding);
        res.type(extname(path.slice(0, -extname(path).length)));
      }
      options?.setHeaders?.(res, path, stat);
    },
  });
  return (req, res, next) => {
    // Under its mount req.path is '/<name>'; the build's names need no decoding.
    const available = codings.get(req.path.slice(1));
    if (available === undefined) return void serve(req, res, next);
    // Every answer for this URL depends on the header, 304s included (RFC 9110 §12.5.5).
    res.vary('Accept-Encoding');
    const coding = negotiateCoding(req.headers['accept-encoding'], available);
    if (coding === undefined) return void serve(req, res, next);
    res.locals.contentCoding = coding;
    const url = req.url;
    const queryAt = url.indexOf('?');
    req.url = queryAt === -1 ? url + CODING_SUFFIXES[coding] : url.slice(0, queryAt) + CODING_SUFFIXES[coding] + url.slice(queryAt);
    serve(req, res, (error?: unknown) => {
      req.url = url; // the copy vanished (another build in this tree): the route goes on as asked
      next(error);
    });
  };
}
