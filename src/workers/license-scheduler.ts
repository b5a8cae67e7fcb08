import type { Db } from '../shared/db/knex.js';
import { scanLicensesOnce } from '../webhooks/license-events.js';
import { describeError } from '../shared/observability/error-description.js';

/** Runs the scan at start-up and then every interval; a failed scan is logged and retried next time. */
export class LicenseScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly db: Db,
    private readonly intervalSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.running) return;
      this.running = scanLicensesOnce(this.db, new Date(this.now()))
        .catch((error: unknown) => console.error('license scheduler:', describeError(error)))
        .finally(() => {
          this.running = null;
        });
    };
    tick();
    this.timer = setInterval(tick, this.intervalSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
