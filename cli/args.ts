import { SERVER_DIGEST } from '../shared/digest-proof.ts';
import { STDIN } from './read-lines.ts';
import type { GroupBy } from './top.ts';

// argv → a typed command. Every mistake is a UsageError: one line naming the bad value, exit 2.
// Written by hand rather than with node:util's parseArgs, which reads every argument that starts
// with '-' as an option: a full server digest may start with '-' (1 in 64 do) and is taken here
// as the digest it is (SERVER_DIGEST), without '--'; and every error names the value in our words.

export const DEFAULT_LIMIT = 10;
/** Shorter prefixes match too many digests to be worth a lookup; 4 base64url chars are 16M values. */
export const MIN_PREFIX_LENGTH = 4;

const DIGEST_CHARS = /^[A-Za-z0-9_-]+$/;
const DURATION = /^([1-9]\d*)(s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const USAGE = `Usage:
  digest <DIGEST> [files…]                      every occurrence of a digest, or of its first 4+ characters
  digest top [--since 1h] [--limit N] [--by replica|release] [files…]
                                                the most frequent digests, each with a sparkline

Reads pino JSON lines from the files (plain or gzip) or from stdin (no files, or -), bare or as
kubectl logs --prefix, docker compose logs, podman-compose logs and Loki (logcli --output=jsonl,
the query_range API's JSON, on one line or through jq) write them, or as a node keeps them (CRI,
Docker json-file); a line two sources hold counts once; each occurrence is attributed to its replica.

Options:
  --since <n><s|m|h|d>   top only: failures in the last 30s, 15m, 1h, 2d…
  --limit <N>            top only: how many digests to show (default ${DEFAULT_LIMIT}; with --by, per group)
  --by <replica|release> top only: one table per replica or per release
  --json                 machine-readable output
  -h, --help             this help

A digest that starts with '-' goes after '--':  digest -- -Xy3…
Exit codes: 0 found, 1 nothing matched, 2 bad usage or unreadable input.
`;

export class UsageError extends Error {}

export type Command =
  | { name: 'help' }
  | { name: 'lookup'; query: string; files: string[]; json: boolean }
  | { name: 'top'; sinceMs: number | undefined; limit: number; by: GroupBy | undefined; files: string[]; json: boolean };

interface Flags {
  json: boolean;
  help: boolean;
  since?: string;
  limit?: string;
  by?: string;
}

export function parseCommand(argv: readonly string[]): Command {
  const { flags, positionals } = split(argv);
  if (flags.help) return { name: 'help' };
  const [first, ...files] = positionals;
  if (first === undefined) throw new UsageError('missing a digest or a command');
  if (first === 'top') {
    const sinceMs = flags.since === undefined ? undefined : parseSince(flags.since);
    return { name: 'top', sinceMs, limit: parseLimit(flags.limit), by: parseBy(flags.by), files, json: flags.json };
  }
  if (flags.since !== undefined || flags.limit !== undefined || flags.by !== undefined)
    throw new UsageError('--since, --limit and --by only apply to `digest top`');
  return { name: 'lookup', query: parseQuery(first), files, json: flags.json };
}

function split(argv: readonly string[]): { flags: Flags; positionals: string[] } {
  const flags: Flags = { json: false, help: false };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    // A full server digest is 16 base64url chars and may start with '-': it is never an option.
    if (!arg.startsWith('-') || arg === STDIN || SERVER_DIGEST.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = splitOption(arg);
    if (name === '--json' && inline === undefined) flags.json = true;
    else if ((name === '--help' || name === '-h') && inline === undefined) flags.help = true;
    else if (name === '--since' || name === '--limit' || name === '--by')
      flags[name.slice(2) as 'since' | 'limit' | 'by'] = inline ?? valueAfter(argv, ++i, name);
    else throw new UsageError(`unknown option '${arg}'${mayBeDigest(arg) ? " (a digest that starts with '-' goes after '--')" : ''}`);
  }
  return { flags, positionals };
}

/** A mistyped long option is far likelier than a digest that starts with '--'. */
function mayBeDigest(arg: string): boolean {
  return !arg.startsWith('--') && DIGEST_CHARS.test(arg);
}

function splitOption(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

function valueAfter(argv: readonly string[], index: number, name: string): string {
  const value = argv[index];
  if (value === undefined) throw new UsageError(`${name} needs a value`);
  return value;
}

/** "30s", "15m", "1h", "2d" → milliseconds. */
export function parseSince(value: string): number {
  const match = DURATION.exec(value);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!]! : NaN;
  if (!Number.isSafeInteger(ms)) throw new UsageError(`invalid --since '${value}': use a whole number and a unit, e.g. 30s, 15m, 1h, 2d`);
  return ms;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = /^[1-9]\d*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(limit)) throw new UsageError(`invalid --limit '${value}': use a whole number of 1 or more`);
  return limit;
}

function parseBy(value: string | undefined): GroupBy | undefined {
  if (value === undefined || value === 'replica' || value === 'release') return value;
  throw new UsageError(`invalid --by '${value}': use replica or release`);
}

function parseQuery(value: string): string {
  if (!DIGEST_CHARS.test(value)) throw new UsageError(`'${value}' is not a digest: digests are letters, digits, '-' and '_'`);
  if (value.length < MIN_PREFIX_LENGTH)
    throw new UsageError(`digest '${value}' is too short: type at least ${MIN_PREFIX_LENGTH} characters`);
  return value;
}
