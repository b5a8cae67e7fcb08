interface Waiting<T> {
  item: T;
  /** Added with add(): written in the next write, which starts after this turn. */
  urgent: boolean;
  resolve: (moved: boolean) => void;
  reject: (error: unknown) => void;
}

/** Other work for the next write's transaction (alongside): settled once that transaction ends. */
interface Rider<C> {
  run: (context: C) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What a write runs, inside its transaction and before the records, for the riders of its batch. */
export type RiderWork<C> = (context: C) => Promise<void>;

export interface SettleQueueLimits {
  /** Most records written in one transaction. */
  maxBatch: number;
  /** A record added with addLater() waits at most this long (plus one write under way) for others to join it. */
  delayMs: number;
}

/**
 * Group commit for attempt records. Sends that finish while a write is under way (or in the same
 * turn of the event loop) are written together in the next one, so a busy dispatcher pays one
 * transaction for many attempts instead of one each. Each caller's promise settles when its own
 * record is written. Records added with addLater() may also wait up to `delayMs` for more to
 * join them (or until `maxBatch` are waiting, or until add() or flush() starts a write), which
 * is what lets a steady stream of answers share transactions; add() never waits beyond the
 * current turn and takes every waiting record with it. The queue holds what its callers
 * bound (the dispatcher: one urgent record per slot, and a fixed number of deferred ones); a
 * batch is at most `maxBatch` records. When a batch fails, its records are written one at a
 * time, so one record that cannot be written never takes the others with it. A record never
 * written leaves its delivery leased: it is sent again when the lease expires, never lost.
 *
 * Other short writes can ride along (alongside()): they run in the next write's transaction,
 * which starts after the current turn as for add(), taking every record waiting with it; so
 * they share a commit with the records instead of paying one of their own. Their results are
 * handed out only once that transaction has committed; when it fails they all fail, and its
 * records are written one at a time without them.
 */
export class SettleQueue<T, C = never> {
  private readonly waiting: Waiting<T>[] = [];
  private riders: Rider<C>[] = [];
  private urgent = 0;
  /** Set when the delay ran out or flush() was called: the next write takes everything waiting. */
  private flushing = false;
  private writing = false;
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly limits: SettleQueueLimits;

  constructor(
    private readonly write: (items: readonly T[], riders: readonly RiderWork<C>[]) => Promise<boolean[]>,
    limits: number | SettleQueueLimits,
  ) {
    this.limits = typeof limits === 'number' ? { maxBatch: limits, delayMs: 0 } : limits;
  }

  /** Records waiting to be written (deferred ones included). */
  get size(): number {
    return this.waiting.length;
  }

  /** Resolves with whether the delivery moved on (false: its lease had passed to another dispatcher). */
  add(item: T): Promise<boolean> {
    return this.enqueue(item, true);
  }

  /** Like add(), but the write may wait up to `delayMs` for other records to share it. */
  addLater(item: T): Promise<boolean> {
    return this.enqueue(item, false);
  }

  /**
   * Runs `run` in the next write's transaction, before its records (that write starts after
   * this turn). Resolves with its result once the transaction has committed.
   */
  alongside<R>(run: (context: C) => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.riders.push({ run, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Writes everything waiting now, without waiting out the delay. */
  flush(): void {
    if (this.waiting.length === 0) return;
    this.flushing = true;
    this.schedule();
  }

  private enqueue(item: T, urgent: boolean): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ item, urgent, resolve, reject });
      if (urgent) this.urgent++;
      if (urgent || this.waiting.length >= this.limits.maxBatch || this.limits.delayMs <= 0) this.schedule();
      else if (!this.timer) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.flush();
        }, this.limits.delayMs);
      }
    });
  }

  /** After this turn's I/O callbacks, so answers that arrived together share the first batch. */
  private schedule(): void {
    if (this.writing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.drain());
  }

  private ready(): boolean {
    if (this.riders.length > 0) return true;
    if (this.waiting.length === 0) return false;
    return this.urgent > 0 || this.flushing || this.limits.delayMs <= 0 || this.waiting.length >= this.limits.maxBatch;
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    this.writing = true;
    try {
      while (this.ready()) {
        const batch = this.waiting.splice(0, this.limits.maxBatch);
        for (const w of batch) if (w.urgent) this.urgent--;
        if (this.waiting.length === 0) this.flushing = false;
        const riders = this.riders;
        this.riders = [];
        await this.writeBatch(batch, riders);
      }
    } finally {
      this.writing = false;
      this.flushing = false;
      if (this.waiting.length === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      // Deferred records left behind (fewer than a batch, none urgent) wait for their delay.
      if (this.waiting.length > 0 && !this.timer) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.flush();
        }, this.limits.delayMs);
      }
    }
  }

  private async writeBatch(batch: Waiting<T>[], riders: Rider<C>[] = []): Promise<void> {
    const results: unknown[] = [];
    const work = riders.map((rider, i) => async (context: C) => {
      results[i] = await rider.run(context);
    });
    try {
      const moved = await this.write(
        batch.map((w) => w.item),
        work,
      );
      riders.forEach((rider, i) => rider.resolve(results[i]));
      batch.forEach((w, i) => w.resolve(moved[i] ?? false));
      return;
    } catch (error) {
      for (const rider of riders) rider.reject(error);
      if (batch.length === 0) return;
      if (batch.length === 1 && riders.length === 0) {
        batch[0]!.reject(error);
        return;
      }
    }
    for (const w of batch) {
      try {
        const [moved] = await this.write([w.item], []);
        w.resolve(moved ?? false);
      } catch (error) {
        w.reject(error);
      }
    }
  }
}
