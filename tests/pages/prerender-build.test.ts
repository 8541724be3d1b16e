import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/harness/paths.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { PRERENDER_DIR } from '../../server/pages/prerender-manifest.ts';
import { APP_BUILDS } from '../support/test-app.ts';
import { startServer } from '../support/server.ts';

// `npm run build`'s prerender step (server/prerender.ts) over pages that go wrong in every way it
// must refuse (tests/apps/host/app/routes/prerendered.tsx). The list of paths is what React
// Router's build resolved from the app's react-router.config.ts (its `prerender` export): here the
// fixture app's build, the same modules, with that export naming those pages. The build lives
// inside the fixture's own build/ (output, never a source the suite's build watches); its modules
// are the fixture's, linked, so failures are traced to the fixture's source lines.

const DIGEST_KEY = 'prerender-build-test-digest-key-0123';
const CASES = ['loader-throws', 'gone', 'moved', 'reads-header', 'reads-session', 'sets-cookie', 'render-throws'];

/** The fixture app's build whose prerender list is `paths`: a server build re-exporting the real one's modules. */
function buildListing(paths: readonly string[]): string {
  const dir = mkdtempSync(join(APP_BUILDS.host, '.prerender-build-test-'));
  mkdirSync(join(dir, 'server'));
  symlinkSync(join(APP_BUILDS.host, 'client'), join(dir, 'client'), 'dir');
  symlinkSync(join(APP_BUILDS.host, 'server/app-migrations.js'), join(dir, 'server/app-migrations.js'));
  const real = JSON.stringify(join(APP_BUILDS.host, 'server/react-router.js'));
  writeFileSync(join(dir, 'server/react-router.js'), `export * from ${real};\nexport const prerender = ${JSON.stringify(paths)};\n`);
  return dir;
}

async function prerender(dir: string) {
  const run = promisify(execFile)(process.execPath, [join(ROOT, 'dist/server/prerender.js')], {
    env: { ...process.env, NODE_ENV: 'production', DIGEST_KEY, APP_BUILD: dir },
  });
  try {
    return { code: 0, ...(await run) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('npm run build with pages that cannot be prerendered', () => {
  let dir: string;
  beforeAll(() => {
    dir = buildListing(['/prerendered/fine', ...CASES.map((name) => `/prerendered/${name}`)]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 with one line per page that cannot be one file, with the digest and source line of a failure', async () => {
    const { code, stdout, stderr } = await prerender(dir);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const at = (path: string) => `prerender failed: path /prerendered/${path}: `;
    const source = 'tests/apps/host/app/routes/prerendered\\.tsx:\\d+';
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^${at('loader-throws')}Error: The prerender fixture failed at build, digest [\\w-]{16}, at ${source}$`),
      ),
      `${at('gone')}it answered 404, not 200`,
      `${at('moved')}it answered a redirect (302 to /prerendered/fine), not a page`,
      `${at('reads-header')}its loaders or middleware read the user-agent request header, and a prerendered page is the same for every request`,
      `${at('reads-session')}its answer is one visitor's (Cache-Control: no-store): its loaders or middleware read the session, or its routes said so`,
      `${at('sets-cookie')}it set a cookie`,
      expect.stringMatching(
        new RegExp(`^${at('render-throws')}Error: The prerender fixture failed to render at build, digest [\\w-]{16}, at ${source}$`),
      ),
    ]);
    // Nothing of it is left to be served, the page that rendered well included.
    expect(existsSync(join(dir, PRERENDER_DIR))).toBe(false);

    // The digests are the ones the server gives the same failures (DIGEST_KEY alike): the operator's tool finds them.
    const server = await startServer({ DIGEST_KEY, APP_BUILD: dir });
    try {
      for (const [path, line] of [
        ['loader-throws', lines[0]!],
        ['render-throws', lines.at(-1)!],
      ]) {
        const res = await fetchOnce(`${server.url}/prerendered/${path}`);
        expect(res.status).toBe(500);
        expect(line).toContain(`digest ${pageDigest(res.body)!},`);
      }
    } finally {
      await server.stop();
    }
  });
});
