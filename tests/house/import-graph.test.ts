// House rules of the layout (README, "Where things are"): no module imports itself back through
// others, and the app and the shared seams never import the host. ESLint enforces the second
// (eslint.config.js); this test reads the same import graph for both, so neither can drift.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/harness/paths.ts';

const SPECIFIER = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => join(folder, file));
}

const files = ['server', 'client', 'shared', 'cli'].flatMap(sources);
const graph = new Map(
  files.map((file) => [
    file,
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(SPECIFIER)].map((m) => normalize(join(dirname(file), m[1]!))),
  ]),
);

function cycles(): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]) => {
    if (path.includes(file)) return void found.push([...path.slice(path.indexOf(file)), file]);
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

/**
 * server/'s rooms, from the ground up (docs/architecture.md, "The rooms"): a module may import
 * its own room and the rooms below it, never one above. The process entry and the app
 * (server/index.ts, app.ts, instrument.ts) stand on top of them all.
 */
const SERVER_ROOMS = [
  'observe',
  'failures',
  'config',
  'edge',
  'writes',
  'data',
  'fleet',
  'assets',
  'telemetry',
  'pages',
  'render',
  'error-pages',
  '(top)',
];

function roomOf(file: string): number {
  const parts = relative('server', file).split(/[\\/]/);
  return SERVER_ROOMS.indexOf(parts.length === 1 ? '(top)' : parts[0]!);
}

describe('the import graph', () => {
  it('reads every module of the four folders', () => {
    expect(files.length).toBeGreaterThan(80);
    expect(graph.get(normalize('server/app.ts'))).toContain(normalize('server/render/react-router-handler.ts'));
  });

  it('has no cycles', () => {
    expect(cycles().map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('never leads from client/ or shared/ into server/, nor from shared/ into client/', () => {
    const crossings = [...graph].flatMap(([from, targets]) =>
      targets
        .filter(
          (to) => (/^(client|shared)\//.test(from) && to.startsWith('server/')) || (from.startsWith('shared/') && to.startsWith('client/')),
        )
        .map((to) => `${from} → ${relative(ROOT, join(ROOT, to))}`),
    );
    expect(crossings).toEqual([]);
  });

  it('puts every module of server/ in a room, and no import runs from a room to one above it', () => {
    const server = [...graph.keys()].filter((file) => file.startsWith('server/'));
    expect(server.filter((file) => roomOf(file) === -1)).toEqual([]);
    const upward = server.flatMap((from) =>
      (graph.get(from) ?? []).filter((to) => to.startsWith('server/') && roomOf(to) > roomOf(from)).map((to) => `${from} → ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it.each([
    'tools/bench/floor-bare.tsx',
    'tools/bench/floor-express.ts',
    'tools/bench/floor-failure.tsx',
    'tools/bench/floor-react-router.ts',
    'tools/bench/floor-same-output.ts',
  ])('the bench’s bare floor %s imports nothing of ours, only packages', (file) => {
    const specifiers = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((specifier) => specifier.startsWith('.') || specifier.startsWith('/'))).toEqual([]);
  });
});
