import { describeError } from './observability/error-description.js';

/**
 * A background job: run at start, every `intervalMs` and on wake(), one run at a time. A wake
 * during a run asks for one more after it, so nothing written meanwhile waits for the next
 * interval. A failed run is logged (unless the job is stopping) and the next one tries again.
 */
export abstract class Periodic {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly label: string,
    private readonly intervalMs: number,
  ) {}

  /** One run; true asks for another at once. */
  protected abstract tick(): Promise<unknown>;

  protected get started(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.intervalMs);
    this.timer.unref();
    this.wake();
  }

  wake(): void {
    this.run();
  }

  /** Stops the schedule and waits for the run under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** A run now, or once more after the one under way. */
  protected run(): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = this.tick()
      .then(
        (more) => {
          if (more === true) this.again = true;
        },
        (error: unknown) => {
          if (this.timer) console.error(`${this.label}:`, describeError(error));
        },
      )
      .finally(() => {
        this.running = null;
        if (this.again) this.run();
      });
  }
}
