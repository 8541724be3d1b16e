import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestHandler } from 'express';

// The files of `public/` (robots.txt, a favicon, .well-known/), as Vite copies them into the
// client build's folder. Known once, at start-up: the folder's regular files, walked without
// following a symlink, the build's own `assets/` and `.vite/` left out, and no dotfile but under
// `.well-known/` (RFC 8615). A request is served only if its path is one of them, so nothing
// outside the folder, through a link or hidden can be named, whatever the path's encoding. In
// dev, Vite serves `public/` itself.

/** Not hashed, so not immutable: a browser keeps them an hour, then revalidates (ETag, Last-Modified). */
const PUBLIC_MAX_AGE_MS = 3_600_000;
/** What the build itself puts beside the public files. */
const BUILD_FOLDERS = new Set(['assets', '.vite']);
const WELL_KNOWN = '.well-known';
/** The route label of public files on the access line. */
export const PUBLIC_ROUTE = 'public';

function walk(dir: string, prefix: string, into: Map<string, string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${prefix}/${entry.name}`;
    if (prefix === '' && BUILD_FOLDERS.has(entry.name)) continue;
    if (entry.name.startsWith('.') && !(prefix === '' && entry.name === WELL_KNOWN)) continue;
    if (entry.isDirectory()) walk(join(dir, entry.name), path, into);
    else if (entry.isFile()) into.set(path, join(dir, entry.name)); // a symlink is neither
  }
}

export function servePublicFiles(clientDir: string): RequestHandler {
  const files = new Map<string, string>();
  walk(clientDir, '', files);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Decodable: a broken escape was refused before (app.ts); `%2F` names the same file as `/`.
    const file = files.get(decodeURIComponent(req.path));
    if (file === undefined) return next();
    res.locals.route = PUBLIC_ROUTE;
    res.sendFile(file, { maxAge: PUBLIC_MAX_AGE_MS, dotfiles: 'allow' }, (error) => error && next(error));
  };
}
