import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, type Plugin } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/harness/paths.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { PRERENDER_DIR } from '../../server/pages/prerender-manifest.ts';
import { prerenderPathsOf } from '../../server/pages/prerender-paths.ts';
import { createRenderer } from '../../client/entry-server.tsx';
import { routes } from '../../client/routes.tsx';
import { startServer } from '../support/server.ts';

// `npm run build`'s prerender step (server/prerender.ts) on a route whose pages go wrong in every
// way it must refuse (tests/fixtures/prerendered.server.ts): the demo's server bundle, built again
// with that route, beside the suite's client build. Only the server build and the step run here.

const DIGEST_KEY = 'prerender-build-test-digest-key-0123';
const SYNTHETIC_ROUTES = join(ROOT, 'client/router/synthetic/synthetic-routes.ts');

/** The fixture's route under the site layout, where the host puts synthetic routes (vite.config.ts's own plugin leaves the module alone). */
function fixtureRoutes(): Plugin {
  const module = (file: string) => `() => import(${JSON.stringify(join(ROOT, 'tests/fixtures', file))})`;
  const page = module('Prerendered.tsx');
  return {
    name: 'test:prerender-fixture-routes',
    enforce: 'pre',
    load(id) {
      if (id !== SYNTHETIC_ROUTES) return undefined;
      return `export const syntheticRoutes = [
        { id: 'prerendered', path: 'prerendered/:case', page: ${page}, server: ${module('prerendered.server.ts')} },
        { id: 'prerendered-malformed', path: 'prerendered-malformed', page: ${page}, server: ${module('prerendered-malformed.server.ts')} },
      ];`;
    },
  };
}

/**
 * A project inside the repository's dist/ (no package.json of its own: its stack frames are named
 * from the repository's root, as the app's are), with the suite's client build linked in.
 */
async function buildWithFixture(): Promise<string> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'dist', '.prerender-build-test-'));
  mkdirSync(join(dir, 'dist'));
  symlinkSync(join(ROOT, 'dist/client'), join(dir, 'dist/client'), 'dir');
  await build({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'silent',
    build: { ssr: true, outDir: join(dir, 'dist/server') },
    plugins: [fixtureRoutes()],
  });
  return dir;
}

async function prerender(dir: string) {
  const run = promisify(execFile)(process.execPath, [join(dir, 'dist/server/prerender.js')], {
    env: { ...process.env, NODE_ENV: 'production', DIGEST_KEY },
  });
  try {
    return { code: 0, ...(await run) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('npm run build with routes whose pages cannot be prerendered', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await buildWithFixture();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 with one line per refusal: the route of a malformed export, and the route and path of each page that cannot be one file, with the digest and source line of a failure', async () => {
    const { code, stdout, stderr } = await prerender(dir);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const at = (path: string) => `prerender failed: route prerendered, path /prerendered/${path}: `;
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([
      'prerender failed: route prerendered-malformed: prerender must be true, a list of paths, or a function that returns one',
      expect.stringMatching(
        new RegExp(
          `^${at('loader-throws')}Error: The prerender fixture failed at build, digest [\\w-]{16}, at tests/fixtures/prerendered\\.server\\.ts:8$`,
        ),
      ),
      `${at('gone')}it answered 404, not 200`,
      `${at('moved')}it answered a redirect (302 to /prerendered/fine), not a page`,
      `${at('reads-header')}its loaders or middleware read the user-agent request header, and a prerendered page is the same for every request`,
      `${at('reads-session')}its answer is one visitor's (Cache-Control: no-store): its loaders or middleware read the session, or its routes said so`,
      `${at('sets-cookie')}it set a cookie`,
      expect.stringMatching(
        new RegExp(
          `^${at('render-throws')}Error: The prerender fixture failed to render at build, digest [\\w-]{16}, at tests/fixtures/Prerendered\\.tsx:7$`,
        ),
      ),
    ]);
    // Nothing of it is left to be served, the page that rendered well included.
    expect(existsSync(join(dir, PRERENDER_DIR))).toBe(false);

    // The digests are the ones the server gives the same failures (DIGEST_KEY alike): the operator's tool finds them.
    const server = await startServer({ DIGEST_KEY }, ['node', join(dir, 'dist/server/index.js')]);
    try {
      for (const [path, line] of [
        ['loader-throws', lines[1]!],
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

describe("a route's prerender export", () => {
  const renderer = createRenderer(routes);
  const route = (id: string) => renderer.listRoutes().find((listed) => listed.id === id)!;
  const leafOf = (path: string) => renderer.match(new URL(path, 'http://localhost'), () => false)?.routeId;
  const paths = (id: string, value: unknown) => prerenderPathsOf({ ...route(id), prerender: () => Promise.resolve(value) }, leafOf);

  it("takes React Router's three forms: true for a path without parameters, a list, or a function given the route's own paths", async () => {
    expect(await paths('about', true)).toEqual({ paths: ['/about'] });
    expect(await paths('guide', ['/guide/streaming', '/guide/streaming', '/guide/caf\u00e9'])).toEqual({
      paths: ['/guide/streaming', '/guide/caf%C3%A9'],
    });
    expect(await paths('about', ({ getStaticPaths }: { getStaticPaths(): string[] }) => Promise.resolve(getStaticPaths()))).toEqual({
      paths: ['/about'],
    });
    expect(await paths('about', undefined)).toBeUndefined();
    expect(route('guide').path).toBe('/guide/:topic?');
  });

  it.each([
    ['guide', true, "prerender: true needs a path without parameters, and this route's is /guide/:topic?: list its paths instead"],
    ['guide', ['/about'], 'prerender lists /about, which this route does not answer (route about does)'],
    ['guide', ['/nowhere/at/all'], 'prerender lists /nowhere/at/all, which this route does not answer (no page does)'],
    [
      'guide',
      ['/guide/a/../streaming'],
      'prerender lists "/guide/a/../streaming" is not a normalized path (it resolves to /guide/streaming)',
    ],
    [
      'guide',
      ['/guide/streaming?tab=1'],
      `prerender lists "/guide/streaming?tab=1" is not a page's path (a string starting with /, no query, at most 2048 characters)`,
    ],
    ['guide', () => 'not a list', 'prerender() must return a list of paths (or a promise of one)'],
    ['api-guestbook', true, 'prerender is for pages, and this is a resource route (no page to render)'],
  ])('refuses %s with %j, saying why', async (id, value, problem) => {
    expect(await paths(id, value)).toEqual({ problem });
  });

  it('hands on what a prerender() function throws, for the build to record with its digest', async () => {
    const error = new Error('The CMS is down');
    expect(await paths('guide', () => Promise.reject(error))).toEqual({ thrown: error });
  });
});
