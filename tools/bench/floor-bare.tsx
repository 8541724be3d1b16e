// Floor (c), the stack's true floor: Express 5 and React 19's renderToPipeableStream with no
// router, no middleware and nothing of ours (it imports nothing from client/, server/ or shared/:
// tests/house/bench-soak.test.ts checks). The same page as our streamed row: a title, an h1 and one
// Suspense section that resolves after `?ms=`, shell first. The @react-router/express floor
// (floor-react-router.ts) renders the bench app through React Router; this one shows React alone.
import { Suspense, use } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';

const HTML = 'text/html; charset=utf-8';
const MINIMAL_500 = '<!DOCTYPE html><html lang="en"><title>500</title><h1>Internal Server Error</h1></html>';
const MINIMAL_404 = '<!DOCTYPE html><html lang="en"><title>404</title><h1>Not Found</h1></html>';

const later = (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve(`resolved after ${ms} ms`), ms));

function Section({ done }: { done: Promise<string> }) {
  return <p>{use(done)}</p>;
}

function Page({ ms, fail }: { ms: number; fail: 'shell' | 'section' | undefined }) {
  if (fail === 'shell') throw new Error('floor: the page threw before its shell');
  const done = fail === 'section' ? later(ms).then(() => Promise.reject(new Error('floor: a section threw'))) : later(ms);
  done.catch(() => {});
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>Slow page</title>
      </head>
      <body>
        <h1>Slow page</h1>
        <Suspense fallback={<p>Loading…</p>}>
          <Section done={done} />
        </Suspense>
      </body>
    </html>
  );
}

function page(fail?: 'shell' | 'section'): RequestHandler {
  return (req, res) => {
    const ms = Number(new URL(req.originalUrl, 'http://floor').searchParams.get('ms') ?? 0);
    const stream = renderToPipeableStream(<Page ms={ms} fail={fail} />, {
      onShellReady() {
        res.status(200).type(HTML);
        stream.pipe(res);
      },
      onShellError() {
        res.status(500).type(HTML).send(MINIMAL_500);
      },
      onError() {
        // a section's error is React's to show; the floor keeps no log
      },
    });
    res.on('close', () => {
      if (!res.writableFinished) stream.abort();
    });
  };
}

const jsonError: ErrorRequestHandler = (_error, _req, res, _next) => {
  res.status(500).json({ error: { status: 500, message: 'Internal Server Error' } });
};

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));
app.use('/assets', express.static(process.env.ASSETS_DIR ?? 'dist/client/assets', { immutable: true, maxAge: '1y', index: false }));
app.get('/slow', page());
app.get('/stream-error', page('section'));
app.get('/error', page('shell'));
app.get('/api/error', () => {
  throw new Error('floor: a JSON route threw');
});
app.use((_req, res) => void res.status(404).type(HTML).send(MINIMAL_404));
app.use(jsonError);
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
