import { createReadStream } from 'node:fs';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { LineSplitter, type Line } from './line-splitter.ts';

// One source (a file path, or '-' for stdin) as lines, streamed: a multi-GB log is never held
// in memory, nor is one line past its bound (cli/line-splitter.ts). Gzip is recognised by its
// magic bytes (RFC 1952 §2.3.1), not by the file name, so a rotated `app.log.1` that is
// compressed, or gzip piped into stdin, reads the same.

export const STDIN = '-';
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/** The lines a chunk of input ends, a batch at a time: one await per chunk, not per line. */
export async function* readLines(source: string): AsyncGenerator<Line[]> {
  const raw = source === STDIN ? process.stdin : createReadStream(source);
  const splitter = new LineSplitter();
  for await (const chunk of await decompressed(raw)) yield splitter.push(chunk as Buffer);
  yield splitter.end();
}

async function decompressed(raw: Readable): Promise<Readable> {
  const chunks = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head = await readHead(chunks);
  const whole = Readable.from(prepend(head, chunks), { objectMode: false });
  if (!head.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) return whole;
  // pipeline carries a read error or corrupt gzip into the returned stream, and so to the reader.
  return pipeline(whole, createGunzip(), () => {});
}

/** At least the magic's length, unless the input is shorter: a pipe may deliver one byte first. */
async function readHead(chunks: AsyncIterator<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  while (length < GZIP_MAGIC.length) {
    const next = await chunks.next();
    if (next.done) break;
    parts.push(next.value);
    length += next.value.length;
  }
  return Buffer.concat(parts);
}

async function* prepend(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}
