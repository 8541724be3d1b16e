// Floor (e), the failure floor, only what a digest error page needs. A route throws;
// Express's error middleware hashes the error into an HMAC digest, writes one pino line and
// renders a small React error page with renderToString. No request ids, no access line, no
// security headers, no Sentry. Nothing of ours is imported (tests/house/import-graph.test.ts).
import { createHmac } from 'node:crypto';
import { renderToString } from 'react-dom/server';
import express, { type ErrorRequestHandler } from 'express';
import { pino } from 'pino';

/** The same digest length as the host's (96 bits, base64url): the same work per failure. */
const DIGEST_BYTES = 12;
const KEY = process.env.DIGEST_KEY ?? 'bench-failure-floor-key';

const log = pino();

function ErrorPage({ digest }: { digest: string }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>Something went wrong</title>
      </head>
      <body>
        <h1>Something went wrong</h1>
        <p>
          Reference <code>{digest}</code>
        </p>
      </body>
    </html>
  );
}

const digestPage: ErrorRequestHandler = (error: Error, req, res, _next) => {
  const digest = createHmac('sha256', KEY)
    .update(`${error.name}: ${error.message}\n${error.stack ?? ''}`)
    .digest()
    .subarray(0, DIGEST_BYTES)
    .toString('base64url');
  log.error({ err: error, digest, url: req.originalUrl }, 'request failed');
  res
    .status(500)
    .type('html')
    .send(`<!DOCTYPE html>${renderToString(<ErrorPage digest={digest} />)}`);
};

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));
app.get('/error', () => {
  throw new Error('floor: the page threw');
});
app.use(digestPage);
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
