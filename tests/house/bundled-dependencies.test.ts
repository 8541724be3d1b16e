import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/harness/paths.ts';
import { BUNDLED_DEPENDENCIES } from '../../vite/bundled-dependencies.ts';

// The packages the server build carries (vite/bundled-dependencies.ts). An import of theirs
// that the bundle leaves out is resolved at run time from dist/server, not from the package's
// own folder: a nested copy of another version is then not the one loaded. compression, listed
// once, got Express's negotiator 1.x in place of its own 0.6, which reads its second argument
// otherwise, and browsers that list gzip before br got gzip.

/** Where the bundle's files are, as Node resolves a bare import from them. */
const BUNDLE_DIR = join(ROOT, 'dist/server/assets');

/** The folder Node's resolution finds `name` in, walking up from `from`. */
function installed(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const folder = join(dir, 'node_modules', name);
    if (existsSync(join(folder, 'package.json'))) return realpathSync(folder);
    if (dirname(dir) === dir) return undefined;
  }
}

interface Mismatch {
  dependency: string;
  of: string;
  installed: string | undefined;
  fromBundle: string | undefined;
}

/** Every dependency the bundle leaves out, of `name` and of the listed packages it brings, that resolves from the bundle to another copy. */
function mismatches(name: string, from: string, seen: Set<string>): Mismatch[] {
  const folder = installed(name, from);
  if (folder === undefined || seen.has(folder)) return [];
  seen.add(folder);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).flatMap((dependency) => {
    if (BUNDLED_DEPENDENCIES.includes(dependency)) return mismatches(dependency, folder, seen);
    const own = installed(dependency, folder);
    const fromBundle = installed(dependency, BUNDLE_DIR);
    const shown = (path: string | undefined) => path && relative(ROOT, path);
    return own === fromBundle ? [] : [{ dependency, of: name, installed: shown(own), fromBundle: shown(fromBundle) }];
  });
}

describe('the packages the server build carries', () => {
  it('are each installed', () => {
    expect(BUNDLED_DEPENDENCIES.filter((name) => installed(name, ROOT) === undefined)).toEqual([]);
  });

  it('load, from the build, the very copies of their other dependencies they were installed with', () => {
    const seen = new Set<string>();
    expect(BUNDLED_DEPENDENCIES.flatMap((name) => mismatches(name, ROOT, seen))).toEqual([]);
  });
});
