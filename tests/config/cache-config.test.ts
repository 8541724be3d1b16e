import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_REDIS_TIMEOUT_MS } from '../../server/config/cache-config.ts';

// Stored pages' settings (server/config/cache-config.ts, docs/caching.md): a bad value stops the
// boot with one line naming the variable; a URL that may carry a password is never echoed.

describe('the page cache’s settings', () => {
  it('default to memory of 64 MiB, no Redis, no revalidation endpoint', () => {
    expect(loadConfig({}).cache).toEqual({
      maxBytes: DEFAULT_CACHE_MAX_BYTES,
      redisUrl: undefined,
      pagesRedisUrl: undefined,
      redisTimeoutMs: DEFAULT_REDIS_TIMEOUT_MS,
      revalidateToken: undefined,
    });
  });

  it.each([
    [{ CACHE_MAX_BYTES: '-1' }, 'Invalid CACHE_MAX_BYTES="-1": expected an integer from 0 to 17179869184'],
    [{ REDIS_TIMEOUT_MS: '0' }, 'Invalid REDIS_TIMEOUT_MS="0": expected an integer from 1 to 5000'],
    [{ REVALIDATE_TOKEN: 'short' }, 'Invalid REVALIDATE_TOKEN="<redacted>": expected at least 16 characters'],
    [
      { REDIS_URL: 'http://user:secret@redis:6379' },
      'Invalid REDIS_URL="<redacted>": expected a URL such as redis://redis:6379 or rediss://user:password@host:6380/0',
    ],
    [
      { CACHE_REDIS_URL: 'redis//pages' },
      'Invalid CACHE_REDIS_URL="<redacted>": expected a URL such as redis://redis:6379 or rediss://user:password@host:6380/0',
    ],
  ])('refuses %o with one line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['redis://redis:6379', 'redis://redis:6379/1'],
    ['redis://redis', 'rediss://user:pw@REDIS:6379/2'],
    ['redis://10.0.0.5:6380', 'redis://10.0.0.5:6380'],
  ])('refuses the state (%s) and the stored pages (%s) on one server: one eviction policy for both', (state, pages) => {
    expect(() => loadConfig({ REDIS_URL: state, CACHE_REDIS_URL: pages })).toThrow(
      /^Invalid CACHE_REDIS_URL="<redacted>": expected another Redis server than REDIS_URL/,
    );
  });

  it('takes the state and the stored pages on two servers, each URL as written', () => {
    const { cache } = loadConfig({ REDIS_URL: 'redis://state:6379', CACHE_REDIS_URL: 'rediss://u:p@pages:6380/0' });
    expect([cache.redisUrl, cache.pagesRedisUrl]).toEqual(['redis://state:6379', 'rediss://u:p@pages:6380/0']);
  });
});
