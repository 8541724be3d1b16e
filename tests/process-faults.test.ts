import { describe, expect, it } from 'vitest';
import { LEVEL } from './support/logs.ts';
import { spawnServer } from './support/spawn-server.ts';

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
    const server = await spawnServer({}, faultOnSignal(fault));
    server.child.kill('SIGUSR2');
    const code = await server.exited;
    expect(code).toBe(1);
    const fatal = server.logs.lines.find((line) => line.level === LEVEL.fatal);
    expect(fatal).toMatchObject({ kind, digest: expect.stringMatching(/^[\w-]{16}$/), error: { type: 'Error' } });
    expect(server.logs.lines.at(-1)).toBe(fatal);
  });
});
