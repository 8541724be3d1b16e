// House rules that used to hold by hand only: every file a comment, README line or docs/ page
// names exists, and the README's middleware list is the one server/app.ts mounts. Each fails
// the day a file moves without its mentions, or app.ts gains a middleware the README omits.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/harness/paths.ts';

/** A path with a folder and a source or document extension: `server/app.ts`, `./support/test-app.ts`, `failures/digest.ts`. */
const NAMED_PATH = /(?<![\w.@/:\\-])(\.{0,2}\/?[\w.-]+\/[\w./-]*\.(?:tsx?|md|ya?ml|css|json|cfg))(?![\w/])/g;
/** A file named bare, without its folder: `(log-bound.ts)`. */
const BARE_NAME = /(?<![\w.@/:\\-])([\w-]+(?:\.[\w-]+)*\.tsx?)(?![\w/])/g;
/** Folders a path may be written relative to, beside the naming file's own. */
const ROOTS = ['', 'server', 'client', 'shared', 'tests', 'tools', 'cli'];
/** Not files of the repository: build output, the container's paths, a bench run's reports, placeholders in examples. */
const NOT_REPOSITORY_FILES = /^(\/|\.vite\/|artifacts\/)|(^|\/)x\.(server\.)?tsx?$/;

function tracked(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  return files.filter((file) => /\.(tsx?|js|md|ya?ml)$/.test(file) || file === 'Dockerfile' || file === '.ci/run');
}

function missingPaths(): string[] {
  const missing: string[] = [];
  const files = tracked().filter((file) => existsSync(join(ROOT, file)));
  const names = new Set(files.map((file) => basename(file)));
  // The app in client/ (all but the host's client/router/) is the app's own: its files may be
  // named, and what they name is theirs to keep; the house's rules are for the host.
  const host = (file: string) => !file.startsWith('client/') || file.startsWith('client/router/');
  for (const file of files.filter(host)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    // A code block that quotes a file (its first line `// client/pages/about.tsx`) imports relative to that file.
    const quoted = [...text.matchAll(/^```\w*\n\/\/ ([\w./-]+)$/gm)].map(([, quotedFile]) => dirname(quotedFile!));
    // A bare name only says "some file of this name": it must be one of the tree's.
    for (const [, named] of text.matchAll(BARE_NAME)) if (!names.has(named!)) missing.push(`${file} names ${named}`);
    for (const [, named] of text.matchAll(NAMED_PATH)) {
      if (NOT_REPOSITORY_FILES.test(named!) || named!.includes('node_modules')) continue;
      const found = [dirname(file), ...ROOTS, ...quoted].some((root) => existsSync(join(ROOT, root, named!)));
      if (!found) missing.push(`${file} names ${named}`);
    }
  }
  return missing;
}

/**
 * The modules server/app.ts mounts with app.use(), by their path in server/ (`edge/health.ts`):
 * what each call mounts is its first identifier after any path, an imported factory or
 * middleware, a local made by one (its initializer's first imported call), a dependency's
 * `middleware` (`deps.frontend.middleware` is frontend.ts's) or request spans, or an inline handler's first call.
 */
function mountedModules(): string[] {
  const source = readFileSync(join(ROOT, 'server/app.ts'), 'utf8');
  const moduleOf = new Map<string, string>();
  for (const [, names, from] of source.matchAll(/^import \{([^}]+)\} from '\.\/([^']+)';$/gm)) {
    for (const name of names!.split(',')) moduleOf.set(name.replace(/^\s*type\s+/, '').trim(), from!);
  }
  const firstImported = (expression: string) =>
    [...expression.matchAll(/\b[A-Za-z_]\w*\b/g)].map(([name]) => moduleOf.get(name)).find((from) => from !== undefined);
  const locals = new Map([...source.matchAll(/const (\w+) =\s+([^;]+);/g)].map(([, name, value]) => [name!, value!]));
  const mounted = [...source.matchAll(/app\.use\(\s*(?:'[^']*',\s*)?([\s\S]*?)\);\n/g)].map(([, expression]) => {
    const deps = /^deps\.(\w+)\.(?:middleware|requestSpans)/.exec(expression!);
    if (deps) return dependencyModules[deps[1]!] ?? `unknown: ${expression}`;
    const local = locals.get(/^\w+/.exec(expression!)?.[0] ?? '');
    const from = firstImported(local ?? expression!);
    return from ?? `unknown: ${expression}`;
  });
  return [...new Set(mounted)].sort();
}

/** What app.ts mounts of its dependencies (`deps.frontend.middleware`, `deps.telemetry.requestSpans`), by the module that makes them. */
const dependencyModules: Record<string, string> = {
  frontend: 'assets/frontend.ts',
  metrics: 'observe/metrics.ts',
  telemetry: 'telemetry/otel.ts',
};

/** The names listed under server/app.ts in the README's "How a request flows". */
function readmeMiddleware(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf('server/app.ts '), readme.indexOf('\nclient/routes.ts '));
  const listed = [...block.matchAll(/^ {2}([\w/-]+\.ts)/gm)].map((match) => match[1]!);
  return [...new Set(listed)].sort();
}

describe('house rules', () => {
  it('every file a comment, README line or docs/ page names exists', () => {
    expect(missingPaths()).toEqual([]);
  });

  it("the README's middleware list names exactly the modules server/app.ts mounts", () => {
    expect(readmeMiddleware()).toEqual(mountedModules());
  });
});
