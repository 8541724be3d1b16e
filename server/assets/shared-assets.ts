import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { constants, open } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { RequestHandler } from 'express';

// Version skew during a rolling deploy: a page from a new replica names chunks that old
// replicas never had, and the balancer may send the browser's request for them to an old one.
// With SHARED_ASSETS_DIR, every replica of every release adds its built assets to one directory
// (a volume they all mount) before it listens, and serves /assets from its own build first and
// that directory second. A replica only becomes ready after publishing, so any page anyone can
// get names files that every replica can serve, old or new.

/**
 * Copies the files of `ownDir` that `sharedDir` lacks; returns how many. Names carry content
 * hashes, so a name already there has the same bytes. Each file is written under a temporary
 * name and renamed, so a replica reading the directory never serves half a file.
 */
export function publishAssets(ownDir: string, sharedDir: string): number {
  mkdirSync(sharedDir, { recursive: true });
  let copied = 0;
  for (const name of readdirSync(ownDir)) {
    const target = join(sharedDir, name);
    if (existsSync(target)) continue;
    const partial = join(sharedDir, `.${name}.${process.pid}.partial`);
    copyFileSync(join(ownDir, name), partial);
    renameSync(partial, target);
    copied += 1;
  }
  return copied;
}

/**
 * What the directory may serve: a name Vite gives a built file ([name]-[hash].[ext]), checked on
 * the raw path before any decoding, so no '/', '\', '%', NUL or leading dot ever reaches the
 * file system: no subfolder, no traversal in any encoding, no dotfile (a partial copy above).
 */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;
/**
 * The name's last component is opened without following a symlink (ELOOP) and without waiting
 * for a writer if it is a FIFO; what was opened is then checked with fstat. Opening then
 * checking the open file leaves no moment where a symlink swapped in could be followed.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Errors that mean "nothing servable by that name": the same 404 as a name never published. */
const NOT_SERVABLE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR', 'EACCES', 'EPERM', 'ENXIO', 'ENAMETOOLONG']);
/** The same header express.static gives the build's own assets: hashed names never change. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Serves regular files directly in `dir` and nothing else; anything else goes on to the 404. */
export function serveSharedAssets(dir: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Under the /assets mount req.path is '/<name>', still percent-encoded as it arrived.
    const name = req.path.slice(1);
    if (!ASSET_NAME.test(name)) return next();
    open(join(dir, name), OPEN_FLAGS)
      .then(
        async (file) => {
          let piped = false;
          try {
            const stats = await file.stat();
            if (!stats.isFile()) return next();
            res.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
            res.setHeader('Last-Modified', stats.mtime.toUTCString());
            // send's (express.static's) weak ETag: size and mtime, so both sources agree.
            res.setHeader('ETag', `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`);
            res.type(extname(name));
            if (req.fresh) return void res.status(304).end();
            res.setHeader('Content-Length', stats.size);
            if (req.method === 'HEAD') return void res.end();
            piped = true;
            // The stream closes the file when it ends or fails; a client that leaves ends it too.
            await pipeline(file.createReadStream(), res).catch(() => res.destroy());
          } finally {
            if (!piped) await file.close();
          }
        },
        (error: NodeJS.ErrnoException) => (NOT_SERVABLE.has(error.code ?? '') ? next() : next(error)),
      )
      // A stat or close that fails (EIO, ESTALE on a network volume) is this request's failure, not the process's.
      .catch(next);
  };
}
