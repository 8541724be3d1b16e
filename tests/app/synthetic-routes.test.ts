import { describe, expect, it } from 'vitest';
import { syntheticRouteCount } from '../../vite.config.ts';

// SYNTHETIC_ROUTES=<n> npm run build, for benchmarks (docs/performance.md, "Route-table growth"):
// the bench's growth rows build and load it (a synthetic page that is not a 200 fails the bench).

describe('SYNTHETIC_ROUTES', () => {
  it('is 0 unset or empty, and any whole number up to 10,000', () => {
    expect(syntheticRouteCount(undefined)).toBe(0);
    expect(syntheticRouteCount('')).toBe(0);
    expect(syntheticRouteCount('1000')).toBe(1000);
    expect(syntheticRouteCount('10000')).toBe(10_000);
  });

  it.each(['abc', '-1', '1.5', '10001', '1e9', ' 5x'])('refuses %j with the variable, the value and what it expects', (raw) => {
    expect(() => syntheticRouteCount(raw)).toThrow(`Invalid SYNTHETIC_ROUTES=${JSON.stringify(raw)}: expected an integer from 0 to 10000`);
  });
});
