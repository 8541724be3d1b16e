import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { causeOf, isErrorLike, readString } from './thrown-value.ts';
import { MAX_CAUSE_DEPTH, MAX_REMEMBERED_STACK } from './digest.ts';
import { boundedMemo } from '../../shared/bounded-memo.ts';

// Production stacks point into the bundle (dist/server/assets/entry-server-….js:169:8). The
// build ships a source map beside each server file (vite.config.ts), and a failure's stack is
// rewritten through it before it is fingerprinted and logged, so the log names the source file
// and line (client/router/diagnostics/server-error.tsx:20:48). Only failures pay for it: maps are
// read on the first failure that needs them and kept (docs/performance.md, "Benchmark", has the cost).

/** Distinct bundle files are few (the entry and its chunks); the cap bounds memory regardless. */
const MAX_CACHED_MAPS = 64;
/** Stacks remembered mapped: distinct failures at once are few; a stack is a few KB at most (20 frames). */
const MAX_MAPPED_STACKS = 1_000;

/** `at fn (location:line:col)` or `at location:line:col`, with the location in group 2. */
const FRAME = /^(\s*at (?:.+? \()?)(.+?):(\d+):(\d+)(\)?)$/;

export type StackFixer = (error: unknown) => void;

interface LoadedMap {
  map: SourceMap;
  dir: string;
}

export function createSourceMapper(): { fixStack: StackFixer; mapStack: (stack: string) => string } {
  const maps = new Map<string, LoadedMap | null>();
  const mapped = new WeakSet<object>();

  function load(file: string): LoadedMap | null {
    const cached = maps.get(file);
    if (cached !== undefined) return cached;
    let loaded: LoadedMap | null = null;
    if (/\.m?js$/.test(file)) {
      try {
        const payload = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0] & {
          sourceRoot?: string;
        };
        loaded = { map: new SourceMap(payload), dir: resolve(dirname(file), payload.sourceRoot ?? '') };
      } catch {
        loaded = null; // no map shipped for this file: its frames stay as they are
      }
    }
    if (maps.size < MAX_CACHED_MAPS) maps.set(file, loaded);
    return loaded;
  }

  function mapLine(line: string): string {
    const match = FRAME.exec(line);
    if (!match) return line;
    const [, head = '', location = '', lineNo = '', column = '', tail = ''] = match;
    const file = location.startsWith('file://') ? safePath(location) : location.startsWith('/') ? location : undefined;
    const loaded = file === undefined ? null : load(file);
    if (loaded === null) return line;
    const entry = loaded.map.findEntry(Number(lineNo) - 1, Number(column) - 1) as Partial<{
      generatedLine: number;
      originalSource: string;
      originalLine: number;
      originalColumn: number;
    }>;
    // findEntry answers with the nearest earlier mapping; one on another line is not this code.
    if (entry.originalSource === undefined || entry.generatedLine !== Number(lineNo) - 1) return line;
    const source = entry.originalSource.startsWith('file://') ? safePath(entry.originalSource) : resolve(loaded.dir, entry.originalSource);
    if (source === undefined) return line;
    return `${head}${source}:${(entry.originalLine ?? 0) + 1}:${(entry.originalColumn ?? 0) + 1}${tail}`;
  }

  // One failure repeats with the same stack (an error storm is thousands of one throw): each
  // distinct stack is mapped once. Bounded, whatever varies between stacks.
  const mapStack = boundedMemo((stack: string) => stack.split('\n').map(mapLine).join('\n'), MAX_MAPPED_STACKS, MAX_REMEMBERED_STACK);

  /** Rewrites the stacks of an error and its causes in place, once per error. */
  function fixStack(error: unknown): void {
    let current = error;
    for (let depth = 0; depth <= MAX_CAUSE_DEPTH && isErrorLike(current); depth++) {
      const target = current as object;
      if (mapped.has(target)) return;
      mapped.add(target);
      const stack = readString(target, 'stack');
      if (stack !== undefined) {
        try {
          (target as { stack: string }).stack = mapStack(stack);
        } catch {
          // a frozen error or a read-only stack: logged as it is
        }
      }
      current = causeOf(current);
    }
  }

  return { fixStack, mapStack };
}

function safePath(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}
