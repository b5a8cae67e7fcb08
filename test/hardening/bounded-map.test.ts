import { describe, expect, it } from 'vitest';
import { setBounded } from '../../src/shared/bounded-map.js';

/** The one eviction rule of every bounded cache (src/shared/bounded-map.ts). */
describe('setBounded', () => {
  it('keeps at most the bound, dropping the entry at the front of the order first', () => {
    const map = new Map<string, number>();
    for (let i = 0; i < 10; i++) setBounded(map, `k${i}`, i, 3);
    expect([...map.entries()]).toEqual([
      ['k7', 7],
      ['k8', 8],
      ['k9', 9],
    ]);
  });

  it('replaces the value of a key it holds without dropping another', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    setBounded(map, 'a', 10, 2);
    expect([...map.entries()]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });

  it('drops the least recently used entry of a map whose user moves an entry to the end on use', () => {
    const map = new Map<string, number>();
    setBounded(map, 'a', 1, 2);
    setBounded(map, 'b', 2, 2);
    // A use: moved to the end of the order.
    const a = map.get('a')!;
    map.delete('a');
    map.set('a', a);
    setBounded(map, 'c', 3, 2);
    expect([...map.keys()]).toEqual(['a', 'c']);
  });
});
