// The keys sessions are signed with (./session.ts): SESSION_SECRET's, newest first. Unset, a dev
// server (NODE_ENV=development, npm run dev's) keeps one in a git-ignored file under the working
// directory's data/, beside the dev database, so its sessions outlive a restart; anywhere else
// each process makes its own (index.ts warns in production): sessions then hold on one process
// and end at its restart.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config/config.ts';
import { MIN_SESSION_SECRET_BYTES } from '../config/config-values.ts';

/** Under data/, which .gitignore ignores: never committed, never in an image (.dockerignore). */
export const DEV_SECRET_FILE = 'data/dev-session-secret';

/** rw------- */
const OWNER_ONLY = 0o600;

const fresh = () => randomBytes(MIN_SESSION_SECRET_BYTES).toString('base64url');

export function sessionSecrets(config: Pick<Config, 'sessionSecrets' | 'nodeEnv'>, file = resolve(DEV_SECRET_FILE)): readonly string[] {
  if (config.sessionSecrets !== undefined) return config.sessionSecrets;
  if (config.nodeEnv !== 'development') return [fresh()];
  mkdirSync(dirname(file), { recursive: true });
  try {
    // Made only if missing ('wx': never through a file or link already there), readable by its
    // owner alone: whoever reads it can sign session ids.
    writeFileSync(file, `${fresh()}\n`, { mode: OWNER_ONLY, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // One kept from before may have been made readable by others since: made private again.
  if ((statSync(file).mode & 0o777) !== OWNER_ONLY) chmodSync(file, OWNER_ONLY);
  const kept = readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(kept) < MIN_SESSION_SECRET_BYTES) {
    throw new Error(`${file} holds no session secret of ${MIN_SESSION_SECRET_BYTES}+ bytes: delete it, and a new one is made`);
  }
  return [kept];
}
