// Version skew: with SHARED_ASSETS_DIR, a replica publishes its assets for the others and
// serves the ones other releases published (the rolling deploy itself is in tests/scale-out/).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/harness/paths.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const OWN_ASSETS = join(ROOT, 'dist/client/assets');

describe('shared assets directory', () => {
  let server: RunningServer | undefined;
  let dir = '';
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("publishes this build's assets before listening and serves another release's from the directory", async () => {
    dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-assets-'));
    // What a replica of another release left there, and a copy some replica had not finished.
    writeFileSync(join(dir, 'entry-client-OtHeR123.js'), 'console.log("the other release");');
    writeFileSync(join(dir, '.entry-client-HaLf4567.js.99.partial'), 'console.log("half');
    server = await startServer({ SHARED_ASSETS_DIR: dir });

    const own = readdirSync(OWN_ASSETS);
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(own));
    expect(server.logs.lines.find((line) => line.msg === 'assets published to the shared directory')).toMatchObject({ copied: own.length });

    const other = await fetch(`${server.url}/assets/entry-client-OtHeR123.js`);
    expect(other.status).toBe(200);
    expect(other.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await other.text()).toBe('console.log("the other release");');
    expect((await fetch(`${server.url}/assets/.entry-client-HaLf4567.js.99.partial`)).status).toBe(404);
    expect((await fetch(`${server.url}/assets/entry-client-MiSsInG0.js`)).status).toBe(404);
  });

  it('a directory it cannot write stops the boot with one line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-assets-'));
    writeFileSync(join(dir, 'file'), '');
    await expect(startServer({ SHARED_ASSETS_DIR: join(dir, 'file', 'assets') })).rejects.toThrow(/exited with 1/);
  });
});
