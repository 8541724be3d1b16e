import { EventEmitter } from 'node:events';
import { Suspense, use } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { batchedDestination } from '../../server/pages/batched-destination.ts';

// Backpressure between React and the response, which an HTTP client cannot pin down: how much a
// socket or zlib takes before saying it is full depends on the machine (tests/assets/compression.test.ts
// has the whole page over HTTP).

const SECTION_CHARS = 20_000;

/** A response that takes writes while `accepting`, says it is full otherwise, and drains on demand. */
class FakeResponse extends EventEmitter {
  readonly writableHighWaterMark = 1024;
  writableEnded = false;
  destroyed = false;
  accepting = true;
  readonly writes: string[] = [];
  /** What came with end(). */
  last = '';
  write(chunk: Buffer): boolean {
    this.writes.push(chunk.toString());
    return this.accepting;
  }
  end(chunk?: Buffer): void {
    this.last = chunk?.toString() ?? '';
    this.writableEnded = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  drain(): void {
    this.accepting = true;
    this.emit('drain');
  }
  get text(): string {
    return this.writes.join('') + this.last;
  }
}

function Section({ text, ready }: { text: string; ready: Promise<void> }) {
  use(ready);
  return <p>{text}</p>;
}

/** A page with an h1 and one section per text, each shown once `release()` is called, streamed into `res`. */
function streamSections(res: FakeResponse, texts: string[]): { release: () => void } {
  let release!: () => void;
  const ready = new Promise<void>((resolve) => (release = resolve));
  const stream = renderToPipeableStream(
    <main>
      <h1>{`${texts.length} sections`}</h1>
      {texts.map((text, i) => (
        <Suspense key={i} fallback={<p>pending</p>}>
          <Section text={text} ready={ready} />
        </Suspense>
      ))}
    </main>,
    { onShellReady: () => stream.pipe(batchedDestination(res as unknown as Response)) },
  );
  return { release };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const [a, b] = ['A', 'B'].map((letter) => letter.repeat(SECTION_CHARS)) as [string, string];

describe('a page streamed through the batched destination', () => {
  it('stops between sections while the response is full, and finishes the page once it drains', async () => {
    const res = new FakeResponse();
    const { release } = streamSections(res, [a, b]);
    await settle();
    expect(res.text).toContain('2 sections');
    expect(res.text).not.toContain(a);

    res.accepting = false; // the client stopped reading
    release();
    await settle();
    // One section went (it is what filled the batch); the other waits for the drain.
    expect([res.text.includes(a), res.text.includes(b)].filter(Boolean)).toHaveLength(1);
    expect(res.writableEnded).toBe(false);

    res.drain();
    await settle();
    expect(res.text).toContain(a);
    expect(res.text).toContain(b);
    expect(res.writableEnded).toBe(true);
    expect(res.destroyed).toBe(false);
  });

  it('a batch past the high-water mark pauses React, and it goes on once the response takes the batch', async () => {
    const res = new FakeResponse(); // never full: no 'drain' will come
    streamSections(res, [a, b]).release();
    await settle();
    expect(res.text).toContain(a);
    expect(res.text).toContain(b);
    expect(res.writableEnded).toBe(true);
    // The sections left in separate writes: React stopped between them.
    expect([...res.writes, res.last].filter((text) => text.includes(a) || text.includes(b))).toHaveLength(2);
  });

  it('gives each batch to the response as one write, the last with the end', async () => {
    const res = new FakeResponse();
    const { release } = streamSections(res, ['small']);
    await settle();
    expect(res.writes).toHaveLength(1);
    release();
    await settle();
    expect(res.writes).toHaveLength(1);
    expect(res.last).toContain('small');
    expect(res.writableEnded).toBe(true);
  });
});
