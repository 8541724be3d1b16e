#!/usr/bin/env node
// The digest lookup CLI: from a digest on a user's screenshot to the failure, in one command.
// It runs in the production image, where only Node and prod dependencies exist: it imports
// Node built-ins and its sibling files only (cli/vite.config.ts bundles it to dist/cli/digest.js).

import { USAGE, UsageError, parseCommand, type Command } from './args.ts';
import { skippedNotes } from './format.ts';
import { ambiguityWarning, lookupJson, lookupText, reportedOnlyText } from './format-lookup.ts';
import { topJson, topText } from './format-top.ts';
import { lookup } from './lookup.ts';
import { STDIN } from './read-lines.ts';
import { safeJson } from './safe-text.ts';
import { InputError, type Skipped } from './scan.ts';
import { top } from './top.ts';

/** 0 found, 1 nothing matched, 2 bad usage or unreadable input; 70 is a bug (sysexits EX_SOFTWARE). */
const EXIT = { found: 0, noMatch: 1, badInput: 2, bug: 70 } as const;

const print = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const warn = (text: string) => process.stderr.write(`digest: ${text}\n`);

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCommand(argv);
  if (command.name === 'help') {
    print(USAGE);
    return EXIT.found;
  }
  return command.name === 'lookup' ? runLookup(command, sourcesOf(command.files)) : runTop(command, sourcesOf(command.files));
}

/** No files means stdin; at a terminal that is a forgotten file argument, not a paste. */
function sourcesOf(files: string[]): string[] {
  if (files.length > 0) return files;
  if (process.stdin.isTTY) throw new UsageError("no input: pass log files, pipe logs in, or use '-' to read the terminal");
  return [STDIN];
}

async function runLookup(command: Extract<Command, { name: 'lookup' }>, sources: string[]): Promise<number> {
  const result = await lookup(command.query, sources);
  reportSkipped(result.skipped);
  const warning = ambiguityWarning(result);
  if (warning !== undefined) warn(warning);
  if (command.json) print(safeJson(JSON.stringify(lookupJson(result), null, 2)));
  if (result.matches.length === 0) {
    const named = result.reportedOnly.length;
    const apart = named === 0 ? '' : ` (browser reports name ${named === 1 ? 'one such digest' : `${named} such digests`}, listed apart)`;
    warn(`no failure with a digest starting '${command.query}' in ${describe(sources)}${apart}`);
    if (!command.json && named > 0) print(reportedOnlyText(result));
    return EXIT.noMatch;
  }
  if (!command.json) print(lookupText(result));
  return EXIT.found;
}

async function runTop(command: Extract<Command, { name: 'top' }>, sources: string[]): Promise<number> {
  const result = await top({ sinceMs: command.sinceMs, limit: command.limit, by: command.by, now: Date.now() }, sources);
  reportSkipped(result.skipped);
  if (command.json) print(safeJson(JSON.stringify(topJson(result), null, 2)));
  if (result.rows.length === 0) {
    warn(`no failure with a digest in ${describe(sources)}${command.sinceMs === undefined ? '' : ' within --since'}`);
    return EXIT.noMatch;
  }
  if (!command.json) print(topText(result));
  return EXIT.found;
}

function reportSkipped(skipped: Skipped): void {
  for (const note of skippedNotes(skipped)) warn(note);
}

function describe(sources: readonly string[]): string {
  return sources.map((source) => (source === STDIN ? 'stdin' : source)).join(', ');
}

function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) {
    warn(`${error.message}\nRun 'digest --help' for usage.`);
    return EXIT.badInput;
  }
  if (error instanceof InputError) {
    warn(error.message);
    return EXIT.badInput;
  }
  process.stderr.write(`digest: unexpected error\n${(error as Error)?.stack ?? String(error)}\n`);
  return EXIT.bug;
}

// `digest top | head` closes the pipe early: that is the reader being done, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.found);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => (process.exitCode = exitCodeOf(error)),
);
