/**
 * Sets `key` in a map that is kept to at most `max` entries. When a new key would pass the
 * bound, the entry at the front of the map's order is dropped first: the oldest one added, or,
 * for a map whose user moves an entry to the end on every use, the least recently used. Every
 * bounded cache in shiftgate (prepared statements, verified tokens, signing keys, send targets…)
 * forgets by this one rule.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
