// Floor (d), the stored-page floor: what serving a stored page costs at the least. Bare Express 5 sending one
// fixed 10 KB page, built once at start, and Express's own 404 (its finalhandler) for every other
// path. Nothing of ours is imported (tests/house/import-graph.test.ts checks).
import express from 'express';

/** The size: a stored page is a string already rendered; this one is 10 KB of HTML. */
const PAGE_BYTES = 10 * 1024;

const HEAD = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Fixed page</title></head><body><h1>Fixed page</h1>';
const TAIL = '</body></html>';
const PARAGRAPH = '<p>A stored page is sent as it was rendered, with no React and no router on the way out.</p>';
const filler = PARAGRAPH.repeat(Math.ceil(PAGE_BYTES / PARAGRAPH.length)).slice(0, PAGE_BYTES - HEAD.length - TAIL.length);
const PAGE = `${HEAD}${filler}${TAIL}`;

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));
app.get('/page', (_req, res) => void res.type('html').send(PAGE));
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
