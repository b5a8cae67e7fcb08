interface Waiting<T> {
  item: T;
  resolve: (moved: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for attempt records. Sends that finish while a write is under way (or in the same
 * turn of the event loop) are written together in the next one, so a busy dispatcher pays one
 * transaction for many attempts instead of one each. Each caller's promise settles when its own
 * record is written, so a slot is still freed only once its attempt is recorded. The queue holds
 * at most one record per send in flight, which the dispatcher's slots already bound; a batch is
 * at most `maxBatch` records. When a batch fails, its records are written one at a time, so one
 * record that cannot be written never takes the others with it. A record never written leaves
 * its delivery leased: it is sent again when the lease expires, never lost.
 */
export class SettleQueue<T> {
  private readonly waiting: Waiting<T>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: readonly T[]) => Promise<boolean[]>,
    private readonly maxBatch: number,
  ) {}

  /** Resolves with whether the delivery moved on (false: its lease had passed to another dispatcher). */
  add(item: T): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // After this turn's I/O callbacks, so answers that arrived together share the first batch.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.maxBatch);
        await this.writeBatch(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeBatch(batch: Waiting<T>[]): Promise<void> {
    try {
      const moved = await this.write(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(moved[i] ?? false));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
    }
    for (const w of batch) {
      try {
        const [moved] = await this.write([w.item]);
        w.resolve(moved ?? false);
      } catch (error) {
        w.reject(error);
      }
    }
  }
}
