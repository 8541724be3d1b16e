import { LISTENING_PREFIX } from '../shared/log-line.ts';

// Which release is the newest in the logs read, and since when: `digest top` marks a digest
// first seen in it, since then, as new there ("new since the deploy at 14:02" is the first
// question after a deploy). After a rollback it is the release rolled back to, and its time is
// the rollback's, not its first line of before the other release.
//
// A release's start is its processes' latest `listening on` line (server/index.ts writes it
// once up), else its first line. The newest is the one whose start is latest: during a rollout
// or a canary the old release writes on, and its lines may well be the last ones read, but the
// new one started after it. A rollback starts the old release again, so it is newest again.
// Logs that hold no `listening on` line (cut after the start, or gathered from the lines of
// failures alone) cannot tell a rollback from a rollout: then the newest is the release of the
// latest line, which after a rollback is the release rolled back to.

/** pino writes `{"level":30,"time":<ms>,"release":"…",…}`: read without parsing every line. */
const TIME_KEY = '"time":';
const RELEASE_KEY = '"release":"';
const LISTENING_KEY = `"msg":"${LISTENING_PREFIX}`;
/** RELEASE's own bound (server/config/config-values.ts). */
const MAX_RELEASE_LENGTH = 200;
/** Starts kept per release, the latest: a fleet's restarts over the logs read, with room to spare. */
const MAX_STARTS = 1000;

/** The string value after `key`, when it has no escapes; undefined otherwise. */
function fieldText(text: string, key: string): string | undefined {
  const start = text.indexOf(key);
  if (start === -1) return undefined;
  const from = start + key.length;
  const end = text.indexOf('"', from);
  if (end === -1 || end - from > MAX_RELEASE_LENGTH) return undefined;
  const value = text.slice(from, end);
  return value === '' || value.endsWith('\\') ? undefined : value;
}

/** Epoch ms (pino's default) or an ISO string (its isoTime). */
function timeOf(text: string): number | undefined {
  const start = text.indexOf(TIME_KEY);
  if (start === -1) return undefined;
  const from = start + TIME_KEY.length;
  const iso = text[from] === '"';
  const end = iso ? text.indexOf('"', from + 1) : text.slice(from, from + 20).search(/[^\d]/) + from;
  const ms = iso ? Date.parse(text.slice(from + 1, end)) : Number(text.slice(from, end));
  return Number.isFinite(ms) && end > from ? ms : undefined;
}

export interface NewestRelease {
  release: string;
  /** Epoch ms of its first line. */
  firstLine: number;
  /** Epoch ms it began running as the newest: its first line, or after a rollback its start again. */
  since: number;
  /** The release it followed: of the others, the one that started last. */
  previous: string;
}

class Release {
  first = Infinity;
  last = -Infinity;
  /** Its `listening on` lines' times, at most MAX_STARTS of the latest. */
  starts: number[] = [];

  see(ms: number, listening: boolean): void {
    this.first = Math.min(this.first, ms);
    this.last = Math.max(this.last, ms);
    if (!listening) return;
    this.starts.push(ms);
    if (this.starts.length > 2 * MAX_STARTS) this.starts = this.starts.sort((a, b) => a - b).slice(-MAX_STARTS);
  }

  get start(): number {
    return this.starts.length === 0 ? this.first : Math.max(...this.starts);
  }
}

export class Releases {
  private readonly byName = new Map<string, Release>();

  /** Every log line read (cli/scan.ts, onLine): found by indexOf, since a regex per line cost `top` a third more time. */
  readonly see = (text: string): void => {
    const name = fieldText(text, RELEASE_KEY);
    const ms = name === undefined ? undefined : timeOf(text);
    if (name === undefined || ms === undefined) return;
    let release = this.byName.get(name);
    if (release === undefined) this.byName.set(name, (release = new Release()));
    release.see(ms, text.includes(LISTENING_KEY));
  };

  /** Undefined with fewer than two releases: nothing is new when one release is all there is. */
  newest(): NewestRelease | undefined {
    if (this.byName.size < 2) return undefined;
    const all = [...this.byName];
    const started = all.some(([, release]) => release.starts.length > 0);
    const [name, newest] = latest(all, (release) => (started ? release.start : release.last));
    const [previous, before] = latest(
      all.filter(([other]) => other !== name),
      (release) => release.start,
    );
    return { release: name, firstLine: newest.first, since: sinceOf(newest, before.start), previous };
  }
}

/** The release with the greatest key; equal keys, the one whose last line is later. */
function latest(releases: [string, Release][], key: (release: Release) => number): [string, Release] {
  return releases.reduce((best, entry) => {
    const order = key(entry[1]) - key(best[1]) || entry[1].last - best[1].last;
    return order > 0 ? entry : best;
  });
}

/**
 * A release first seen after the one before it started: its first line. One seen before that (a
 * rollback): its first start after, or without `listening on` lines, the other one's start.
 */
function sinceOf(release: Release, previousStart: number): number {
  if (release.first > previousStart) return release.first;
  const after = release.starts.filter((start) => start >= previousStart);
  return after.length > 0 ? Math.min(...after) : previousStart;
}
