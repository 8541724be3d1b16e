// Which release is the newest in the logs read: the one whose first line is latest (a deploy's
// first line is its "listening on"). `digest top` marks a digest first seen in it as new there:
// "new since the deploy at 14:02" is the first question after a deploy.

/** pino writes `{"level":30,"time":<ms>,"release":"…",…}`: read without parsing every line. */
const TIME = /"time":(?:(\d+)|"([^"]{1,40})")/;
const RELEASE = /"release":"([^"\\]{1,200})"/;

export interface NewestRelease {
  release: string;
  /** Epoch ms of its first line. */
  firstLine: number;
}

export class Releases {
  private readonly firstLine = new Map<string, number>();

  /** Every log line read (cli/scan.ts, onLine). */
  readonly see = (text: string): void => {
    const release = RELEASE.exec(text)?.[1];
    const time = TIME.exec(text);
    if (release === undefined || time === null) return;
    const ms = time[1] !== undefined ? Number(time[1]) : Date.parse(time[2]!);
    if (!Number.isFinite(ms)) return;
    const known = this.firstLine.get(release);
    if (known === undefined || ms < known) this.firstLine.set(release, ms);
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
