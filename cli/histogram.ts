// Occurrences over time, kept in a bounded number of buckets whatever the span of the log,
// then re-binned into the columns of a sparkline once the window to show is known.

/** Enough resolution for 24 columns over any span, in a few KB per digest. */
const MAX_BUCKETS = 256;
/** The finest bucket: log times are milliseconds, a burst is seconds. */
export const BASE_BUCKET_MS = 1000;

export class Histogram {
  private widthMs = BASE_BUCKET_MS;
  private buckets = new Map<number, number>();
  private first = Infinity;
  private last = -Infinity;

  add(time: number): void {
    const index = Math.floor(time / this.widthMs);
    this.buckets.set(index, (this.buckets.get(index) ?? 0) + 1);
    this.first = Math.min(this.first, index);
    this.last = Math.max(this.last, index);
    while (this.last - this.first >= MAX_BUCKETS) this.coarsen();
  }

  /** Doubles the bucket width, merging pairs: the span held doubles, the memory does not. */
  private coarsen(): void {
    const merged = new Map<number, number>();
    for (const [index, count] of this.buckets) {
      const half = Math.floor(index / 2);
      merged.set(half, (merged.get(half) ?? 0) + count);
    }
    this.buckets = merged;
    this.widthMs *= 2;
    this.first = Math.floor(this.first / 2);
    this.last = Math.floor(this.last / 2);
  }

  /** Counts in `bins` equal slices of [from, to]; a bucket falls where its middle does. */
  bin(from: number, to: number, bins: number): number[] {
    const counts = new Array<number>(bins).fill(0);
    const span = Math.max(to - from, 1);
    for (const [index, count] of this.buckets) {
      const middle = (index + 0.5) * this.widthMs;
      const at = Math.floor(((middle - from) / span) * bins);
      counts[Math.min(bins - 1, Math.max(0, at))]! += count;
    }
    return counts;
  }
}
