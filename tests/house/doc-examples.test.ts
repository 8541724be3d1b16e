import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every TypeScript example in the README and docs/ is quoted from a file of the repository, which
// the build, `npm run typecheck` and `npm run lint` check: an example that stopped compiling, or
// drifted from the code it shows, fails here. Its first line names the file.

const ROOT = join(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const BLOCK = /^```(ts|tsx)\n([\s\S]*?)^```$/gm;
/** Indentation aside: a block may quote lines from inside a function, and Prettier re-indents it. */
const unindented = (text: string) => text.replace(/^[ \t]+/gm, '');

function examples(doc: string): { path: string | undefined; body: string }[] {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  return [...text.matchAll(BLOCK)].map(([, , block]) => {
    const [first, ...rest] = block!.split('\n');
    return { path: /^\/\/ ([\w./-]+\.tsx?)$/.exec(first!)?.[1], body: rest.join('\n') };
  });
}

describe('examples in the documentation', () => {
  it.each(DOCS)('%s: every TypeScript block names its file and is in it as written', (doc) => {
    for (const { path, body } of examples(doc)) {
      expect(path, `a block in ${doc} does not start with // <file>`).toBeDefined();
      expect(unindented(readFileSync(join(ROOT, path!), 'utf8'))).toContain(unindented(body));
    }
  });

  it("the README shows its example's route module, its line in routes.ts, an action and a route's body limits", () => {
    expect(examples('README.md').map((example) => example.path)).toEqual([
      'client/pages/about.tsx',
      'client/routes.ts',
      'client/pages/guestbook/sign-in.tsx',
      'client/router/diagnostics/upload.tsx',
    ]);
  });
});
