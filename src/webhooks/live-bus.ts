/** What a live subscriber receives: the webhook body plus what the filters need. */
export interface LiveEvent {
  companyId: number;
  event: string;
  eventType: string;
  /** The same JSON body a webhook receiver gets. */
  payload: string;
}

/** One subscriber's events until its iterator is returned; `lagged` when it fell too far behind and was cut off (its iterator then ends). */
type LiveSubscription = AsyncIterable<LiveEvent> & { readonly lagged: boolean };

/** The seam for live events: in-process today; an implementation over LISTEN/NOTIFY could replace it without touching its users. */
export interface LiveEventBus {
  publish(event: LiveEvent): void;
  /** Events for which `match` holds; nothing is registered until iteration starts. */
  subscribe(match?: (event: LiveEvent) => boolean): LiveSubscription;
  /** Whether anyone listens (so payloads are only rendered when someone will read them). */
  readonly listening: boolean;
}

/**
 * Events a subscriber may have waiting: a client that reads slower than the relay publishes is
 * cut off rather than buffered without end (payloads are shared strings, so these are references).
 */
export const MAX_QUEUED_EVENTS = 10_000;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

class Subscriber implements AsyncIterator<LiveEvent> {
  private queue: LiveEvent[] = [];
  private waiting: ((result: IteratorResult<LiveEvent>) => void) | null = null;
  private closed = false;
  lagged = false;

  constructor(
    readonly match: (event: LiveEvent) => boolean,
    private readonly onClose: (subscriber: Subscriber) => void,
  ) {}

  push(event: LiveEvent): void {
    if (this.closed) return;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting({ done: false, value: event });
    else if (this.queue.length < MAX_QUEUED_EVENTS) this.queue.push(event);
    else {
      this.lagged = true;
      this.close();
    }
  }

  next(): Promise<IteratorResult<LiveEvent>> {
    const value = this.queue.shift();
    if (value) return Promise.resolve({ done: false, value });
    if (this.closed) return Promise.resolve(DONE);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<LiveEvent>> {
    this.close();
    return Promise.resolve(DONE);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.onClose(this);
    this.waiting?.(DONE);
    this.waiting = null;
  }
}

/** Fans events out to a set of subscribers (bounded by LIVE_MAX_STREAMS), each with its own bounded queue. */
export class InProcessEventBus implements LiveEventBus {
  private readonly subscribers = new Set<Subscriber>();

  get listening(): boolean {
    return this.subscribers.size > 0;
  }

  publish(event: LiveEvent): void {
    for (const subscriber of this.subscribers) if (subscriber.match(event)) subscriber.push(event);
  }

  subscribe(match: (event: LiveEvent) => boolean = () => true): LiveSubscription {
    const subscribers = this.subscribers;
    let started: Subscriber | null = null;
    return {
      get lagged() {
        return started?.lagged ?? false;
      },
      [Symbol.asyncIterator]() {
        started = new Subscriber(match, (s) => subscribers.delete(s));
        subscribers.add(started);
        return started;
      },
    };
  }
}
