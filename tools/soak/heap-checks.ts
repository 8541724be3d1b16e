// The soak's leak checks: the live heap after a full collection (./live-heap.ts), after the
// main phase and after the abusive clients, against the one after warm-up; RSS shown beside it.
import type { Check } from './checks.ts';

/** A measure at the soak's three samples; `afterAbuse` when the abusive clients ran. */
export interface MemoryAt {
  warm: number;
  end: number;
  afterAbuse?: number;
}

/**
 * Growth allowed in the live heap between the samples after warm-up and later ones. A full
 * collection leaves what the process holds: caches filled to their caps and compiled code. Over
 * 60 s of the mix and the abusive clients it moved -5% to -2% here.
 */
export const HEAP_MAX_GROWTH = 0.1;

const WHEN = { end: 'at the end', afterAbuse: 'after the abusive clients' } as const;

export function heapChecks(heapMb: MemoryAt, rssMb: MemoryAt | undefined): Check[] {
  return (['end', 'afterAbuse'] as const).flatMap((at) => {
    const heap = heapMb[at];
    if (heap === undefined) return [];
    const growth = (heap - heapMb.warm) / heapMb.warm;
    const rss = rssMb === undefined ? '' : `; RSS ${rssMb.warm.toFixed(0)} → ${rssMb[at]?.toFixed(0)} MB`;
    return [
      {
        name: `live heap ${WHEN[at]} ≤ ${HEAP_MAX_GROWTH * 100}% above the live heap after warm-up`,
        pass: growth <= HEAP_MAX_GROWTH,
        detail: `${heapMb.warm.toFixed(1)} → ${heap.toFixed(1)} MB (${(growth * 100).toFixed(1)}%)${rss}`,
      },
    ];
  });
}
