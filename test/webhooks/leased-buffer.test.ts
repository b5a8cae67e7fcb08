import { describe, expect, it } from 'vitest';
import { bufferLimitsFor, LeasedBuffer, type BufferedDelivery } from '../../src/webhooks/leased-buffer.js';

const row = (id: number, host: string, leasedAt = 0, due = `2026-01-01T00:00:${String(id).padStart(2, '0')}.000Z`): BufferedDelivery => ({
  id,
  subscriptionId: id % 3,
  host,
  token: 'lease-token',
  leasedAt,
  due,
});

describe('leased-row buffer bounds', () => {
  it('holds at most perHost rows for one destination and total rows in all, refusing the rest', () => {
    const buffer = new LeasedBuffer({ perHost: 2, total: 3, maxAgeMs: 1000 });
    expect(buffer.room('a')).toBe(2);
    const refused = buffer.add([row(1, 'a'), row(2, 'a'), row(3, 'a'), row(4, 'b'), row(5, 'c')]);
    expect(refused.map((r) => r.id)).toEqual([3, 5]);
    expect(buffer.size).toBe(3);
    expect(buffer.count('a')).toBe(2);
    expect(buffer.room('a')).toBe(0);
    // Room for another destination is what the total leaves.
    expect(buffer.room('c')).toBe(0);
    buffer.remove(1);
    expect(buffer.room('a')).toBe(1);
    expect(buffer.room('c')).toBe(1);
    // A row already held is not held twice.
    expect(buffer.add([row(2, 'a')]).map((r) => r.id)).toEqual([2]);
  });

  it('offers rows oldest due first, never one held longer than maxAgeMs, and hands the stale ones back', () => {
    const buffer = new LeasedBuffer({ perHost: 5, total: 5, maxAgeMs: 1000 });
    buffer.add([row(1, 'a', 0, '2026-01-01T00:00:03.000Z'), row(2, 'a', 500, '2026-01-01T00:00:01.000Z'), row(3, 'b', 900, '2026-01-01T00:00:02.000Z')]);
    expect(buffer.sendable(1000).map((r) => r.id)).toEqual([2, 3, 1]);
    expect(buffer.sendable(1001).map((r) => r.id)).toEqual([2, 3]);
    expect(buffer.takeStale(1600).map((r) => r.id)).toEqual([1, 2]);
    expect(buffer.size).toBe(1);
    expect(buffer.count('a')).toBe(0);
    expect(buffer.takeAll().map((r) => r.id)).toEqual([3]);
    expect(buffer.size).toBe(0);
  });

  it('keeps the order and the age bound through rows taken out, added again and added later', () => {
    const buffer = new LeasedBuffer({ perHost: 9, total: 9, maxAgeMs: 1000 });
    buffer.add([row(5, 'a', 0), row(1, 'a', 0), row(3, 'b', 100)]);
    expect(buffer.sendable(0).map((r) => r.id)).toEqual([1, 3, 5]);
    // Taken out (sent), then a later top-up with rows due in between and one held again.
    buffer.remove(1);
    buffer.remove(5);
    buffer.add([row(4, 'a', 600), row(2, 'b', 600), row(5, 'a', 600)]);
    expect(buffer.sendable(700).map((r) => r.id)).toEqual([2, 3, 4, 5]);
    expect(buffer.sendable(700).map((r) => r.leasedAt)).toEqual([600, 100, 600, 600]);
    // The oldest lease left the buffer: what remains ages from its own lease.
    expect(buffer.takeStale(1050).map((r) => r.id)).toEqual([]);
    expect(buffer.takeStale(1101).map((r) => r.id)).toEqual([3]);
    expect(buffer.takeStale(1500).map((r) => r.id)).toEqual([]);
    expect(buffer.takeStale(1601).map((r) => r.id)).toEqual([4, 2, 5]);
    expect(buffer.size).toBe(0);
    expect(buffer.sendable(1601)).toEqual([]);
  });

  it('sizes the buffer from the caps and keeps every send from it inside its lease', () => {
    expect(bufferLimitsFor({ leaseMs: 30_000, timeoutMs: 15_000, concurrency: 8, concurrencyPerHost: 4 })).toEqual({
      perHost: 64,
      minPerHost: 8,
      sendsPerHost: 4,
      total: 128,
      maxAgeMs: 5000,
    });
    for (const [leaseMs, timeoutMs] of [
      [30_000, 15_000],
      [3000, 2000],
      [16_000, 15_000],
      [1_000_000, 120_000],
      [15_250, 15_000],
    ] as const) {
      const limits = bufferLimitsFor({ leaseMs, timeoutMs, concurrency: 8, concurrencyPerHost: 4 });
      // Leased at 0, sent at maxAgeMs at the latest, answered or timed out by then + timeoutMs.
      expect(limits.maxAgeMs + timeoutMs).toBeLessThan(leaseMs);
      expect(limits.perHost).toBeGreaterThan(0);
    }
    // When the lease leaves almost no room beyond the time-out, nothing is leased ahead.
    expect(bufferLimitsFor({ leaseMs: 15_100, timeoutMs: 15_000, concurrency: 8, concurrencyPerHost: 4 })).toMatchObject({ perHost: 0, total: 0 });
  });

  it('gives a fast destination its whole bound and a slow one only what it sends in half the age bound', () => {
    const limits = bufferLimitsFor({ leaseMs: 60_000, timeoutMs: 15_000, concurrency: 8, concurrencyPerHost: 4 });
    const buffer = new LeasedBuffer(limits);
    // Answers in 2 ms: 64 rows go out in ~32 ms.
    expect(buffer.boundFor(2)).toBe(64);
    expect(buffer.roomAtPace('a', 2)).toBe(64);
    // Answers in 1 s: 4 sends in flight get through 10 rows in 2.5 s.
    expect(buffer.boundFor(1000)).toBe(10);
    // Answers in 10 s: never fewer than the floor, two rounds of its sends.
    expect(buffer.boundFor(10_000)).toBe(8);
    buffer.add(Array.from({ length: 6 }, (_, i) => row(i + 1, 'a')));
    expect(buffer.roomAtPace('a', 1000)).toBe(4);
    expect(buffer.roomAtPace('a', 10_000)).toBe(2);
    expect(buffer.roomAtPace('a', 2)).toBe(58);
    // The total still bounds every destination.
    expect(new LeasedBuffer({ ...limits, total: 3 }).roomAtPace('a', 2)).toBe(3);
    // Limits without the pace fields (perHost only) keep the plain bound.
    expect(new LeasedBuffer({ perHost: 5, total: 9, maxAgeMs: 1000 }).roomAtPace('a', 10_000)).toBe(5);
  });
});
