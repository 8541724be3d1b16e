// Floor (b): Express + React streaming the same pages with none of our middleware: no logger,
// no request ids, no digests, no error pages beyond a fixed string. It renders client/App.tsx
// through client/entry-server.tsx exactly as our server does, so the HTML is the same size.
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { createSession } from 'react-router';
import { assetsFromManifest, chunksFromManifest, stylesFromManifest } from '../../server/assets/frontend.ts';
import type { Renderer } from '../../shared/page-seam.ts';

/** The bench passes its frozen copy of the build (see build-snapshot.ts). */
const CLIENT_DIR = process.env.CLIENT_DIR ?? join(import.meta.dirname, '../../dist/client');
/** The built renderer (the source imports CSS as text, which only the build understands). */
const { match } = (await import(pathToFileURL(join(CLIENT_DIR, '../server/renderer.js')).href)) as Renderer;
const manifest = JSON.parse(readFileSync(join(CLIENT_DIR, '.vite/manifest.json'), 'utf8')) as Parameters<typeof assetsFromManifest>[0];
const assets = assetsFromManifest(manifest);

/** No session, no logger and an empty database: the floor carries none of the host's per-request work. */
const FLOOR_CONTEXT = {
  session: Object.assign(createSession(), { destroy: () => {} }),
  id: 'floor',
  db: new DatabaseSync(':memory:'),
  log: console,
  limit: () => Promise.resolve(undefined),
  revalidate: () => Promise.resolve(0),
};

const MINIMAL_500 = '<!DOCTYPE html><html lang="en"><title>500</title><h1>Internal Server Error</h1></html>';
const MINIMAL_404 = '<!DOCTYPE html><html lang="en"><title>404</title><h1>Not Found</h1></html>';
const HTML = 'text/html; charset=utf-8';

/** Shell first, as for people; a render that throws before the shell gets the fixed 500 page. */
function page(path: (url: URL) => string): RequestHandler {
  return async (req, res) => {
    const base = new URL(req.originalUrl, 'http://127.0.0.1');
    const url = new URL(path(base), base);
    const route = match(url, () => true);
    const signal = new AbortController().signal;
    const response = await route?.document(
      {
        url,
        method: 'GET',
        headers: {},
        body: null,
        context: FLOOR_CONTEXT,
        signal,
        renderSignal: signal,
        waitForAll: false,
        nonce: '',
        page: {
          assets,
          preloadsFor: chunksFromManifest(manifest),
          stylesFor: stylesFromManifest(manifest),
          build: 'floor',
          requestId: randomUUID(),
          hostname: 'localhost',
        },
      },
      // Errors are React's to show; the floor keeps no log.
      () => ({ status: 500, digest: undefined }),
    );
    if (response?.type !== 'document') return void res.status(500).type(HTML).send(MINIMAL_500);
    res.status(response.status).type(HTML);
    response.body.pipe(res);
    res.on('close', () => {
      if (!res.writableFinished) response.body.abort();
    });
  };
}

/** Its error path for JSON: Express's own error routing and a fixed body. */
const jsonError: ErrorRequestHandler = (_error, _req, res, _next) => {
  res.status(500).json({ error: { status: 500, message: 'Internal Server Error' } });
};

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));
app.use('/assets', express.static(join(CLIENT_DIR, 'assets'), { immutable: true, maxAge: '1y', index: false }));
app.get(
  '/',
  page(() => '/'),
);
app.get(
  '/slow',
  page((url) => `/_diag/slow${url.search}`),
);
app.get(
  '/stream-error',
  page(() => '/_diag/stream-error'),
);
app.get(
  '/error',
  page(() => '/_diag/server-error'),
);
app.get('/api/error', () => {
  throw new Error('floor: a JSON route threw');
});
app.use((_req, res) => void res.status(404).type(HTML).send(MINIMAL_404));
app.use(jsonError);
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
