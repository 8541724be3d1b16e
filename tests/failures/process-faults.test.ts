import { describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { LEVEL } from '../../shared/log-line.ts';
import { startServer } from '../support/server.ts';

/** Preloads a module that faults, outside any request, when the test sends SIGUSR2. */
function faultOnSignal(fault: string): string[] {
  const source = `process.on('SIGUSR2', () => { ${fault} });`;
  return ['node', '--import', `data:text/javascript,${encodeURIComponent(source)}`, 'dist/server/index.js'];
}

describe('process faults', () => {
  it.each([
    ['uncaughtException', "throw new Error('fault outside a request')"],
    ['unhandledRejection', "Promise.reject(new Error('rejection nobody handled'))"],
  ])('an %s is logged at fatal with a digest, flushed, and the process exits non-zero', async (kind, fault) => {
    const server = await startServer({}, faultOnSignal(fault));
    server.child.kill('SIGUSR2');
    const { code } = await server.exited;
    expect(code).toBe(1);
    const fatal = server.logs.lines.find((line) => line.level === LEVEL.fatal);
    expect(fatal).toMatchObject({ kind, digest: expect.stringMatching(SERVER_DIGEST), error: { type: 'Error' } });
    expect(server.logs.lines.at(-1)).toBe(fatal);
  });

  it.each([
    [
      'a null-prototype object',
      "throw Object.assign(Object.create(null), { code: 'EDB' })",
      { type: 'object (null prototype)', message: '{ code: "EDB" }' },
    ],
    ['a Symbol', "throw Symbol('fault')", { type: 'Symbol', message: 'Symbol(fault)' }],
    ['undefined, as a rejection', 'Promise.reject(undefined)', { type: 'undefined', message: 'undefined' }],
    [
      'a Proxy whose every trap throws',
      "const trap = () => { throw new Error('trap'); }; throw new Proxy({}, { get: trap, ownKeys: trap, getPrototypeOf: trap, has: trap })",
      { type: 'object', message: '[unreadable object]' },
    ],
  ])('a fault with %s keeps the original value: one fatal line describing it, no secondary error', async (_name, fault, error) => {
    const server = await startServer({}, faultOnSignal(fault));
    server.child.kill('SIGUSR2');
    expect((await server.exited).code).toBe(1);
    const fatal = server.logs.lines.filter((line) => line.level === LEVEL.fatal);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({ digest: expect.stringMatching(SERVER_DIGEST), error });
    expect(server.stderr()).toBe('');
  });
});
