import { describe, expect, it } from 'vitest';
import { IdIndex } from '../../src/import/id-index.js';

describe('the id index the first reading keeps', () => {
  it('answers as a Map would, through growth, for consecutive, scattered and out-of-range ids', () => {
    const index = new IdIndex();
    const reference = new Map<number, number>();
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 48271) + 11) % 0x7fffffff);
    const ids = [
      ...Array.from({ length: 20_000 }, (_, i) => 2_000_001 + i),
      ...Array.from({ length: 20_000 }, () => 1 + (next() % 0x7ffffffe)),
      0x7fffffff,
      1,
      5_000_000_000,
      2 ** 53 - 1,
    ];
    ids.forEach((id, i) => {
      if (!reference.has(id)) reference.set(id, i);
      if (index.get(id) === undefined) index.set(id, i);
    });
    for (const [id, i] of reference) {
      expect(index.has(id)).toBe(true);
      expect(index.get(id)).toBe(i);
    }
    for (const absent of [3, 1_999_999, 2_020_002, 6_000_000_000]) {
      if (reference.has(absent)) continue;
      expect(index.has(absent)).toBe(false);
      expect(index.get(absent)).toBeUndefined();
    }
  });
});
