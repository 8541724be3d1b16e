import { PassThrough, Readable, Writable } from 'node:stream';
import type { PipeableStream } from 'react-dom/server';

// What a render of a cacheable page wrote, kept as its template while the client gets it filled
// (page-template.ts), and the host's rule for whether it may be stored (docs/caching.md).

/** What happened during a render, as the host saw it: the facts the rule reads. */
export interface RenderFacts {
  status: number;
  /** The answer's headers as sent (the routes' and the host's). */
  headers: Record<string, string>;
  /** The session was read or held data (server/writes/session.ts isPerUser). */
  perUser: boolean;
  setCookie: boolean;
  /** A failure was recorded while it rendered (a boundary, a streamed section's), or the render was cut short. */
  failed: boolean;
  /** The request headers its loaders and middleware read, by name (`*`: all). */
  reads: ReadonlySet<string>;
}

/** Headers that say who is asking: a page that read one is that client's, like one that read the session. */
const PER_USER_HEADERS = ['*', 'cookie', 'authorization'];

/** Why the page may not be stored, or undefined when it may. */
export function notStorable(facts: RenderFacts): string | undefined {
  if (facts.status < 200 || facts.status >= 300) return `it answered ${facts.status}`;
  if (facts.failed) return 'a failure was recorded while it rendered';
  if (facts.perUser) return 'its loaders or middleware read the session (or it held data)';
  if (facts.setCookie) return 'it set a cookie';
  const read = PER_USER_HEADERS.find((name) => facts.reads.has(name));
  if (read !== undefined) return read === '*' ? 'it read every request header' : `it read the ${read} header`;
  const cacheControl = Object.entries(facts.headers).find(([name]) => name.toLowerCase() === 'cache-control')?.[1] ?? '';
  if (/\b(no-store|private)\b/i.test(cacheControl) && !/^private, no-cache$/i.test(cacheControl))
    return `its routes said Cache-Control: ${cacheControl}`;
  return undefined;
}

type Body = PipeableStream | Readable;

function pipeInto(body: Body, into: Writable): void {
  if (body instanceof Readable) body.pipe(into);
  else body.pipe(into);
}

/**
 * The body for the client, filled as it streams through `filler`, and the template: `done`
 * gets it once the render has written its last byte, or undefined when it stopped short.
 */
export function teeBody(body: Body, filler: NodeJS.ReadWriteStream, settle: (template: string | undefined) => void): Readable {
  let settled = false;
  const done = (template: string | undefined) => {
    if (settled) return;
    settled = true;
    settle(template);
  };
  const chunks: Buffer[] = [];
  const source = new PassThrough();
  source.on('data', (chunk: Buffer) => chunks.push(chunk));
  source.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
  source.on('error', () => done(undefined));
  source.on('close', () => {
    if (!source.readableEnded) done(undefined);
  });
  // Piped before the render is: React writes the shell at once, when pipe() is called.
  const out = source.pipe(filler) as unknown as Readable;
  pipeInto(body, source);
  // A client that left stops the render (request-deadline.ts), which ends the source short.
  out.on('close', () => {
    if (!source.readableEnded) source.destroy();
  });
  return out;
}

/** A render with no client (a regeneration): its whole template, or undefined when it stopped short. */
export function collectBody(body: Body): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, next) {
        chunks.push(Buffer.from(chunk));
        next();
      },
    });
    sink.on('finish', () => resolve(Buffer.concat(chunks).toString('utf8')));
    sink.on('error', () => resolve(undefined));
    sink.on('close', () => {
      if (!sink.writableFinished) resolve(undefined);
    });
    pipeInto(body, sink);
  });
}
