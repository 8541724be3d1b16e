// The keys sessions are signed with (./session.ts): SESSION_SECRET's, newest first. Unset, a dev
// server keeps one in a git-ignored file (data/, beside the dev database), so its sessions outlive
// a restart; anywhere else each process makes its own (index.ts warns in production): sessions
// then hold on one process and end at its restart.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config/config.ts';
import { MIN_SESSION_SECRET_BYTES } from '../config/config-values.ts';

/** Under data/, which .gitignore ignores: never committed, never in an image (.dockerignore). */
export const DEV_SECRET_FILE = 'data/dev-session-secret';

const fresh = () => randomBytes(MIN_SESSION_SECRET_BYTES).toString('base64url');

export function sessionSecrets(config: Pick<Config, 'sessionSecrets' | 'nodeEnv'>, file = resolve(DEV_SECRET_FILE)): readonly string[] {
  if (config.sessionSecrets !== undefined) return config.sessionSecrets;
  if (config.nodeEnv !== 'development') return [fresh()];
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (Buffer.byteLength(kept) >= MIN_SESSION_SECRET_BYTES) return [kept];
  } catch {
    // none yet: made below
  }
  const made = fresh();
  mkdirSync(dirname(file), { recursive: true });
  // Readable by its owner alone: whoever reads it can sign sessions.
  writeFileSync(file, `${made}\n`, { mode: 0o600 });
  return [made];
}
