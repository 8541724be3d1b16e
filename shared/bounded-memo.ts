/**
 * Remembers a pure function's answers by key, for hot paths that see few distinct keys. When
 * full it starts again, so a client that sends a new key every time costs at most `max` entries.
 * A string key longer than `maxKeyLength` is computed and not remembered: `max` of them could
 * hold megabytes.
 */
export function boundedMemo<K, V>(compute: (key: K) => V, max: number, maxKeyLength = Infinity): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    if (typeof key === 'string' && key.length > maxKeyLength) return compute(key);
    if (memo.has(key)) return memo.get(key) as V;
    const value = compute(key);
    if (memo.size >= max) memo.clear();
    memo.set(key, value);
    return value;
  };
}
