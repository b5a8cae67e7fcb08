/** A delivery leased ahead of a free slot: what is needed to place it and to check its lease. */
export interface BufferedDelivery {
  id: number;
  subscriptionId: number;
  /** Its destination (destinationOf the subscription's uri when it was leased). */
  host: string;
  /** The lease token it is held under. */
  token: string;
  /** When the lease was taken (its expiry is this plus the lease time). */
  leasedAt: number;
  /** Its due time as stored, for sending oldest first. */
  due: string;
}

export interface BufferLimits {
  /** Rows held for one destination, at most (a destination that answers slowly gets fewer: see roomAtPace). */
  perHost: number;
  /**
   * Rows a destination may always have held, however slowly it answers (perHost when not given).
   * Beyond this, what it gets is sized by its pace (roomAtPace).
   */
  minPerHost?: number;
  /** Its sends in flight at once (WEBHOOK_CONCURRENCY_PER_HOST), for sizing by pace; 1 when not given. */
  sendsPerHost?: number;
  /** Rows held in all. */
  total: number;
  /** A row held longer than this is not sent from the buffer; shorter than the lease minus the send time-out. */
  maxAgeMs: number;
}

/**
 * Rows leased ahead for one destination, in rounds of its sends in flight
 * (WEBHOOK_CONCURRENCY_PER_HOST), for one that answers fast enough to send them all well within
 * the age bound. Each top-up is one lease statement (on SQLite its own commit), so the more rows
 * it takes, the fewer of them a busy destination costs.
 */
const ROUNDS_PER_HOST = 16;
/** Rows any destination that answers may have leased ahead, however slowly, in the same rounds. */
const MIN_ROUNDS_PER_HOST = 2;
/** Rows leased ahead in all, in rounds of the pool (WEBHOOK_CONCURRENCY). */
const ROUNDS = 16;
/** The longest a leased row waits in the buffer (less when the lease leaves less room beyond a send). */
const MAX_AGE_MS = 5000;
/** Below this age bound the buffer is not worth keeping: nothing is leased ahead. */
const MIN_AGE_MS = 100;

/**
 * The buffer's bounds for the dispatcher's settings. A row sent from the buffer is at most
 * `maxAgeMs` into its lease and its send ends within the time-out, so its lease still has at
 * least half of its room beyond the time-out left when the send ends.
 */
export function bufferLimitsFor(config: { leaseMs: number; timeoutMs: number; concurrency: number; concurrencyPerHost: number }): BufferLimits {
  const maxAgeMs = Math.min(MAX_AGE_MS, Math.floor((config.leaseMs - config.timeoutMs) / 2));
  if (maxAgeMs < MIN_AGE_MS) return { perHost: 0, total: 0, maxAgeMs: 0 };
  return {
    perHost: ROUNDS_PER_HOST * config.concurrencyPerHost,
    minPerHost: MIN_ROUNDS_PER_HOST * config.concurrencyPerHost,
    sendsPerHost: config.concurrencyPerHost,
    total: ROUNDS * config.concurrency,
    maxAgeMs,
  };
}

/**
 * Deliveries leased for destinations whose sends are all in flight, so a slot that frees is
 * refilled without claiming first. Bounded three ways: rows per destination, rows in all, and
 * age (a row older than `maxAgeMs` is handed back rather than sent, so every send from here ends
 * well inside its lease). Holding rows never takes a slot: the caps on sends in flight apply
 * when a row leaves the buffer, exactly as to a claimed row.
 */
export class LeasedBuffer {
  private readonly rows = new Map<number, BufferedDelivery>();
  private readonly byHost = new Map<string, number>();
  /**
   * The held rows oldest due first, sorted again only after rows were added: a refill takes
   * them in this order, and a row taken out is dropped from it when next seen (sendable).
   */
  private ordered: BufferedDelivery[] = [];
  private sorted = true;
  /** No held row was leased before this (a bound: lower after removals), so takeStale need not look before it is stale. */
  private oldestLease = Number.POSITIVE_INFINITY;

  constructor(readonly limits: BufferLimits) {}

  get size(): number {
    return this.rows.size;
  }

  count(host: string): number {
    return this.byHost.get(host) ?? 0;
  }

  /** How many more rows `host` may have held now. */
  room(host: string): number {
    return Math.max(0, Math.min(this.limits.perHost - this.count(host), this.limits.total - this.rows.size));
  }

  /**
   * The most rows `host` should have held when its sends take about `answerMs` each: what its
   * sends in flight get through in half the age bound, between minPerHost and perHost. So a
   * fast destination is leased ahead in large top-ups, and a slow one is not given rows it would
   * only hand back unsent when they come of age.
   */
  boundFor(answerMs: number): number {
    const floor = Math.min(this.limits.perHost, this.limits.minPerHost ?? this.limits.perHost);
    const atPace = Math.floor(((this.limits.sendsPerHost ?? 1) * this.limits.maxAgeMs) / (2 * Math.max(1, answerMs)));
    return Math.min(this.limits.perHost, Math.max(floor, atPace));
  }

  /** How many more rows `host` may have held now, its sends taking about `answerMs` each (boundFor). */
  roomAtPace(host: string, answerMs: number): number {
    return Math.max(0, Math.min(this.boundFor(answerMs) - this.count(host), this.limits.total - this.rows.size));
  }

  /** Holds what fits under the bounds; returns the rows that did not (the caller gives their leases back). */
  add(rows: readonly BufferedDelivery[]): BufferedDelivery[] {
    const refused: BufferedDelivery[] = [];
    for (const row of rows) {
      if (this.rows.has(row.id) || this.room(row.host) <= 0) {
        refused.push(row);
        continue;
      }
      this.rows.set(row.id, row);
      this.byHost.set(row.host, this.count(row.host) + 1);
      this.ordered.push(row);
      this.sorted = false;
      if (row.leasedAt < this.oldestLease) this.oldestLease = row.leasedAt;
    }
    return refused;
  }

  /** Held rows, oldest due first, that are still young enough to send at `now`. */
  sendable(now: number): BufferedDelivery[] {
    // Rows taken out since are dropped from the order here, once.
    this.ordered = this.ordered.filter((row) => this.rows.get(row.id) === row);
    if (!this.sorted) {
      // Due times are ISO-8601 strings of one shape: code-unit order is time order (and much
      // cheaper than a locale-aware comparison).
      this.ordered.sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : a.id - b.id));
      this.sorted = true;
    }
    return this.ordered.filter((row) => now - row.leasedAt <= this.limits.maxAgeMs);
  }

  /** Takes the rows held longer than `maxAgeMs` out of the buffer. */
  takeStale(now: number): BufferedDelivery[] {
    if (now - this.oldestLease <= this.limits.maxAgeMs) return [];
    const stale: BufferedDelivery[] = [];
    let oldest = Number.POSITIVE_INFINITY;
    for (const row of this.rows.values()) {
      if (now - row.leasedAt > this.limits.maxAgeMs) stale.push(row);
      else if (row.leasedAt < oldest) oldest = row.leasedAt;
    }
    for (const row of stale) this.remove(row.id);
    this.oldestLease = oldest;
    return stale;
  }

  /** Takes every row out (stopping). */
  takeAll(): BufferedDelivery[] {
    const all = [...this.rows.values()];
    this.rows.clear();
    this.byHost.clear();
    this.ordered = [];
    this.sorted = true;
    this.oldestLease = Number.POSITIVE_INFINITY;
    return all;
  }

  remove(id: number): BufferedDelivery | undefined {
    const row = this.rows.get(id);
    if (!row) return undefined;
    this.rows.delete(id);
    const left = this.count(row.host) - 1;
    if (left > 0) this.byHost.set(row.host, left);
    else this.byHost.delete(row.host);
    return row;
  }
}
