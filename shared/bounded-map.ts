/**
 * Sets `key` as the newest entry of `map` and drops the oldest once it holds more than `max`:
 * a Map iterates in insertion order, so its first key is the one set longest ago. The bound of
 * the host's and the browser's caches keyed by what clients send.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}
