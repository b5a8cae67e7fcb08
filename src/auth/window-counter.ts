/** One key's count in its current window. */
export interface WindowCount {
  consumed: number;
  /** Epoch milliseconds at which the window closes and the count starts again from nothing. */
  expiresAt: number;
}

/**
 * Fixed-window counters kept in this process, counted the way rate-limiter-flexible's memory
 * limiter counts (a key's window opens with its first point and lasts `windowMs`; points keep
 * adding up past the quota), but synchronously: a request costs one map lookup, not a promise and
 * a result object. Expired windows are swept at most once per window, so the map holds only keys
 * seen in the last two windows, as the library's per-key timers did.
 */
export class WindowCounter {
  private readonly counts = new Map<string | number, WindowCount>();
  private nextSweep = 0;

  constructor(private readonly windowMs: number) {}

  /** Adds `points` to `key`'s window at `now` and returns that window; read it before the next call. */
  add(key: string | number, points: number, now: number): WindowCount {
    if (now >= this.nextSweep) this.sweep(now);
    const count = this.counts.get(key);
    if (count !== undefined && count.expiresAt > now) {
      count.consumed += points;
      return count;
    }
    const fresh: WindowCount = { consumed: points, expiresAt: now + this.windowMs };
    this.counts.set(key, fresh);
    return fresh;
  }

  /** How many keys are held (for tests of the bound). */
  get size(): number {
    return this.counts.size;
  }

  private sweep(now: number): void {
    for (const [key, count] of this.counts) if (count.expiresAt <= now) this.counts.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}
