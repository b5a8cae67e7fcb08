import { pruneWebhookHistory, type PruneResult } from '../repositories/webhook-history.js';
import type { Db } from '../shared/db/knex.js';
import { describeError } from '../shared/observability/error-description.js';

const RUN_INTERVAL_MS = 3600 * 1000;

/** Prunes webhook history in the background: at start-up and then every hour. */
export class RetentionWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<PruneResult | undefined> | null = null;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly retentionDays: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A retention of 0 days keeps everything: the worker does not run. */
  start(): void {
    if (this.timer || this.retentionDays === 0) return;
    this.stopping = false;
    const tick = () => {
      if (!this.running) void this.runOnce();
    };
    tick();
    this.timer = setInterval(tick, RUN_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the schedule and waits for the batch in progress (a run stops between batches). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping = true;
    await this.running;
    this.stopping = false;
  }

  /** One pruning run on the worker's clock; a failure is logged and the next run tries again. */
  runOnce(): Promise<PruneResult> {
    if (this.retentionDays === 0) return Promise.resolve({ deliveries: 0, attempts: 0, events: 0 });
    const run = pruneWebhookHistory(this.db, new Date(this.now()), this.retentionDays, { stopping: () => this.stopping })
      .catch((error: unknown) => {
        console.error('webhook retention:', describeError(error));
        return undefined;
      })
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    this.running = run;
    return run.then((result) => result ?? { deliveries: 0, attempts: 0, events: 0 });
  }
}
