import { describe, expect, it } from 'vitest';
import { createDigester } from '../../server/failures/digest.ts';
import { MAX_REMEMBERED_STACK } from '../../server/failures/digest.ts';

// A failure whose message quotes a large body has a stack past what the failure path remembers
// (server/failures/digest.ts): it is worked out each time, and must group as a short one does.

const digest = createDigester('long-messages-digest-key-0123');
const quoting = (text: string) => new Error(`upstream answered: ${text}`);
const fromElsewhere = (text: string) => new Error(`upstream answered: ${text}`);

describe('a failure with a message longer than a remembered stack', () => {
  const long = 'x'.repeat(MAX_REMEMBERED_STACK + 1);

  it('gets one digest every time it repeats', () => {
    // One throw site, as a repeating failure has: a caller on another line is another stack.
    const errors = Array.from({ length: 3 }, () => quoting(long));
    expect(errors[0]!.stack!.length).toBeGreaterThan(MAX_REMEMBERED_STACK);
    expect(new Set(errors.map((error) => digest(error))).size).toBe(1);
  });

  it('is told from the same message thrown elsewhere', () => {
    const [here, elsewhere] = [quoting, fromElsewhere].map((thrower) => thrower(long));
    expect(digest(elsewhere!)).not.toBe(digest(here!));
  });
});
