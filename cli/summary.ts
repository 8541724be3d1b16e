import type { SerializedError } from '../shared/log-line.ts';
import type { Occurrence, Side } from './parse.ts';
import { Tally } from './tally.ts';

// Everything known about one digest after reading the logs: what the lookup prints.

/** The request ids an operator can paste into another search; the rest are counted. */
export const MAX_REQUEST_IDS = 10;
/** Per tally: far more than a person reads, and bounded when paths carry ids. */
const MAX_VALUES = 1000;

export interface RequestSeen {
  reqId: string;
  time: number | undefined;
  side: Side;
  /** Whose log it is in: where to look for the rest of the request. */
  replica?: string;
}

/** A browser's report that names this digest: shown apart, never counted as an occurrence. */
export interface BrowserReport {
  reqId: string | undefined;
  time: number | undefined;
  kind: string | undefined;
  path: string | undefined;
  verified: boolean;
}

export interface ExampleError {
  error: SerializedError;
  time: number | undefined;
  side: Side;
  reqId: string | undefined;
}

export class DigestSummary {
  count = 0;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  readonly sides = new Tally(MAX_VALUES);
  readonly statuses = new Tally(MAX_VALUES);
  readonly routes = new Tally(MAX_VALUES);
  readonly paths = new Tally(MAX_VALUES);
  readonly releases = new Tally(MAX_VALUES);
  /** Occurrences per replica (the line's `replica`, or the pod or service its source names). */
  readonly replicas = new Tally(MAX_VALUES);
  /** The release of the first occurrence: where this digest first appeared. */
  firstRelease: string | undefined;
  readonly kinds = new Tally(MAX_VALUES);
  /** Latest first, at most MAX_REQUEST_IDS. */
  readonly requests: RequestSeen[] = [];
  requestCount = 0;
  example: ExampleError | undefined;
  /** Browser reports with the server's proof (recovered boundaries), and ones without it. */
  verifiedReports = 0;
  unverifiedReports = 0;
  /** Latest first, at most MAX_REQUEST_IDS. */
  readonly reports: BrowserReport[] = [];
  /** Times the error page failed too while answering this failure. */
  secondaryFailures = 0;
  /** Failures of prefetches, which no user saw: counted apart from the occurrences. */
  prefetches = 0;

  constructor(readonly digest: string) {}

  add(occurrence: Occurrence): void {
    if (occurrence.record === 'secondary') {
      this.secondaryFailures++;
      return;
    }
    if (occurrence.record === 'report' || occurrence.record === 'claim') return this.addReport(occurrence);
    if (occurrence.prefetch === true) {
      this.prefetches++;
      return;
    }
    const { time, side } = occurrence;
    this.count++;
    if (time !== undefined) {
      if (this.firstSeen === undefined || time < this.firstSeen) this.firstRelease = occurrence.release;
      this.firstSeen = Math.min(this.firstSeen ?? time, time);
      this.lastSeen = Math.max(this.lastSeen ?? time, time);
    }
    this.sides.add(side);
    this.statuses.add(occurrence.status?.toString());
    this.routes.add(occurrence.route);
    this.paths.add(occurrence.path === undefined ? undefined : [occurrence.method, occurrence.path].filter(Boolean).join(' '));
    this.releases.add(occurrence.release);
    this.replicas.add(occurrence.replica);
    this.kinds.add(occurrence.kind);
    if (occurrence.reqId !== undefined) this.addRequest({ reqId: occurrence.reqId, time, side, replica: occurrence.replica });
    if (this.prefers(occurrence)) this.example = { error: occurrence.error, time, side, reqId: occurrence.reqId };
  }

  private addReport(occurrence: Occurrence): void {
    const verified = occurrence.record === 'report';
    if (verified) this.verifiedReports++;
    else this.unverifiedReports++;
    const { reqId, time, kind, path } = occurrence;
    this.reports.unshift({ reqId, time, kind, path, verified });
    this.reports.sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
    this.reports.length = Math.min(this.reports.length, MAX_REQUEST_IDS);
  }

  private addRequest(request: RequestSeen): void {
    this.requestCount++;
    // In front, so that of two requests in the same millisecond the one read later comes first.
    this.requests.unshift(request);
    this.requests.sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
    this.requests.length = Math.min(this.requests.length, MAX_REQUEST_IDS);
  }

  /**
   * The error shown is the latest server-side one: the server's stack is the one the team can
   * act on, and the latest matches the release running now. Client reports only if that is all.
   */
  private prefers(candidate: Occurrence): boolean {
    if (this.example === undefined) return true;
    const rank = (side: Side) => (side === 'client' ? 0 : 1);
    const byRank = rank(candidate.side) - rank(this.example.side);
    return byRank !== 0 ? byRank > 0 : (candidate.time ?? -Infinity) >= (this.example.time ?? -Infinity);
  }
}
