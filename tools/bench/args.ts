// Command-line flags of the bench and the soak, with node:util's parseArgs: `--name value`
// flags and bare `--switch`es; anything else is refused with the list of what is accepted.
import { parseArgs } from 'node:util';

export type Flags = Record<string, string | boolean | undefined>;

export function parseFlags(argv: readonly string[], known: { values: readonly string[]; switches: readonly string[] }): Flags {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of known.values) options[name] = { type: 'string' };
  for (const name of known.switches) options[name] = { type: 'boolean' };
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const accepted = [...known.values.map((v) => `--${v} N`), ...known.switches.map((s) => `--${s}`)].join(', ');
    throw new Error(`${(error as Error).message}; accepted are ${accepted}`, { cause: error });
  }
}

/** A positive number flag within bounds, so no run can be unbounded by a typo. */
export function numberFlag(flags: Flags, name: string, fallback: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw new Error(`--${name} must be a number from 1 to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}
