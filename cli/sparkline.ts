// Counts → ▁▂▃▄▅▆▇█, so a burst shows at a glance.

const BARS = '▁▂▃▄▅▆▇█';

/**
 * Scaled to the row's own maximum: the bars show the shape, the count column the size. Zero is
 * the lowest bar and any occurrence at least the second, so a single one in a quiet hour shows.
 */
export function sparkline(counts: readonly number[]): string {
  const max = Math.max(0, ...counts);
  const top = BARS.length - 1;
  return counts.map((count) => BARS[count === 0 ? 0 : Math.max(1, Math.ceil((count / max) * top))]).join('');
}
