/**
 * Remembers a pure function's answers by key, for hot paths that see few distinct keys. When
 * full it starts again, so a client that sends a new key every time costs at most `max` entries.
 */
export function boundedMemo<K, V>(compute: (key: K) => V, max: number): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    if (memo.has(key)) return memo.get(key) as V;
    const value = compute(key);
    if (memo.size >= max) memo.clear();
    memo.set(key, value);
    return value;
  };
}
