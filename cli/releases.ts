// Which release is the newest in the logs read: the one whose first line is latest (a deploy's
// first line is its "listening on"). `digest top` marks a digest first seen in it as new there:
// "new since the deploy at 14:02" is the first question after a deploy.

/** pino writes `{"level":30,"time":<ms>,"release":"…",…}`: read without parsing every line. */
const TIME_KEY = '"time":';
const RELEASE_KEY = '"release":"';
/** RELEASE's own bound (server/config/config-values.ts). */
const MAX_RELEASE_LENGTH = 200;

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
}

export class Releases {
  private readonly firstLine = new Map<string, number>();

  /** Every log line read (cli/scan.ts, onLine): found by indexOf, since a regex per line cost `top` a third more time. */
  readonly see = (text: string): void => {
    const release = fieldText(text, RELEASE_KEY);
    if (release === undefined) return;
    const known = this.firstLine.get(release);
    const ms = timeOf(text);
    if (ms !== undefined && (known === undefined || ms < known)) this.firstLine.set(release, ms);
  };

  /** Undefined with fewer than two releases: nothing is new when one release is all there is. */
  newest(): NewestRelease | undefined {
    if (this.firstLine.size < 2) return undefined;
    let newest: NewestRelease | undefined;
    for (const [release, firstLine] of this.firstLine)
      if (newest === undefined || firstLine > newest.firstLine) newest = { release, firstLine };
    return newest;
  }
}
