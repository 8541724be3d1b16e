// Floor (a): the least a Node process can do per request. A bare node:http server that answers
// every path with the same fixed HTML (the bytes of our home page, read once at start).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.FLOOR_BODY_FILE ?? '', 'utf8');
const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body) };

createServer((_req, res) => {
  res.writeHead(200, headers).end(body);
}).listen(Number(process.env.PORT), process.env.HOST);
