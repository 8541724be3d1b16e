import { isbot } from 'isbot';
import { boundedMemo } from '../../shared/bounded-memo.ts';

// isbot's one large regular expression took about as long per request as the rest of the
// error path's own work (a CPU profile of /_diag/server-error). Real traffic carries few
// distinct User-Agents, so each answer is remembered; cleared when full, so a client that
// sends a new User-Agent every time costs memory no more than this many entries.
const MEMO_SIZE = 1_000;
const remembered = boundedMemo(isbot, MEMO_SIZE);

/** isbot's answer for a User-Agent (undefined or empty: not a bot). */
export function isBot(userAgent: string | undefined): boolean {
  return userAgent !== undefined && userAgent !== '' && remembered(userAgent);
}
