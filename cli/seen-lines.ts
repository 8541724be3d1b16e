import { hash } from 'node:crypto';

// The record lines already counted, so that sources that overlap (the same pod's lines from Loki
// and from kubectl, a log and its rotated copy) count each once.
//
// A line's identity is its own text, the server's JSON as it wrote it, whatever wrapper carried
// it: kubectl, Loki, compose and a container runtime all hand over the same bytes. Not the fields
// a person would pick (time, replica, request id, digest): the replica a wrapper names differs by
// tool (a pod name, a Loki label), so one line read twice would count twice; and two real
// occurrences can share those fields (one page's two browser reports carry the page's request id,
// lines from before `replica` have none), while their text differs in the rest (the report's own
// reqId, its message, the time to the millisecond). Two lines whose every byte is equal were one write.

/** 128 of SHA-256's bits: collisions are out of reach, and a key is 16 one-byte characters. */
const KEY_BYTES = 16;

export class SeenLines {
  private readonly keys = new Set<string>();

  /** True the first time a line's text is met, in any source; about 60 bytes kept per line. */
  first(text: string): boolean {
    const key = hash('sha256', text, 'buffer').toString('latin1', 0, KEY_BYTES);
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }
}
