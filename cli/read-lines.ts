import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

// One source (a file path, or '-' for stdin) as lines, streamed: a multi-GB log is never held
// in memory. Gzip is recognised by its magic bytes (RFC 1952 §2.3.1), not by the file name,
// so a rotated `app.log.1` that is compressed, or gzip piped into stdin, reads the same.

export const STDIN = '-';
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

export async function* readLines(source: string): AsyncGenerator<string> {
  const raw = source === STDIN ? process.stdin : createReadStream(source);
  const input = await decompressed(raw);
  // crlfDelay: a \r\n split across chunks is still one line break.
  yield* createInterface({ input, crlfDelay: Infinity });
}

async function decompressed(raw: Readable): Promise<Readable> {
  const chunks = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head = await readHead(chunks);
  const whole = Readable.from(prepend(head, chunks), { objectMode: false });
  if (!head.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) return whole;
  // pipeline carries a read error or corrupt gzip into the returned stream, and so into readline.
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
