// Counts of values (statuses, routes, paths…), most frequent first.

export interface Count {
  value: string;
  count: number;
}

/** Where values past the cap are counted, so a tally's memory stays bounded. */
export const OTHER = '(other)';

export class Tally {
  private readonly counts = new Map<string, number>();

  /** `cap` distinct values: paths with ids in them are unbounded, a person reads a few. */
  constructor(private readonly cap: number) {}

  add(value: string | undefined): void {
    if (value === undefined) return;
    const key = this.counts.has(value) || this.counts.size < this.cap ? value : OTHER;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Most frequent first; equal counts by value, so the output is stable. */
  entries(): Count[] {
    return [...this.counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }
}
