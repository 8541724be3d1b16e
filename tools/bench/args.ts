// `--name value` flags and bare `--switch`es, checked against what the script accepts.

export type Flags = Record<string, string | true>;

export function parseFlags(argv: readonly string[], known: { values: readonly string[]; switches: readonly string[] }): Flags {
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.replace(/^--/, '');
    if (known.switches.includes(name)) {
      flags[name] = true;
    } else if (known.values.includes(name) && argv[i + 1] !== undefined) {
      flags[name] = argv[++i]!;
    } else {
      throw new Error(`Unknown or incomplete argument ${JSON.stringify(arg)}: accepted are ${[...known.values.map((v) => `--${v} N`), ...known.switches.map((s) => `--${s}`)].join(', ')}`);
    }
  }
  return flags;
}

/** A positive number flag within bounds, so no run can be unbounded by a typo. */
export function numberFlag(flags: Flags, name: string, fallback: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw === true || !Number.isFinite(value) || value <= 0 || value > max) {
    throw new Error(`--${name} must be a number from 1 to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}
