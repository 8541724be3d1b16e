// The React Router floor: the bench app's build (tools/bench/app, the one the host serves) on bare
// Express and @react-router/express as React Router's own Express template has it: its static
// files, then `createRequestHandler({ build })`, no load context. Nothing of ours is imported
// (tests/house/import-graph.test.ts checks); the build is the one thing it shares with the host.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@react-router/express';
import express from 'express';
import type { ServerBuild } from 'react-router';

/** The bench app's build root (its client/ and server/), as APP_BUILD names it for the host. */
const BUILD_DIR = process.env.APP_BUILD ?? '';
const build = (await import(pathToFileURL(join(BUILD_DIR, 'server/react-router.js')).href)) as ServerBuild;

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));
app.use('/assets', express.static(join(BUILD_DIR, 'client/assets'), { immutable: true, maxAge: '1y' }));
app.use(express.static(join(BUILD_DIR, 'client'), { maxAge: '1h' }));
app.use(createRequestHandler({ build }));
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
