import { createPubSub } from 'graphql-yoga';

/** What a live subscriber receives: the webhook body plus what the filters need. */
export interface LiveEvent {
  companyId: number;
  event: string;
  eventType: string;
  /** The same JSON body a webhook receiver gets. */
  payload: string;
}

/**
 * The seam for live events. In-process today (one server); with several instances on
 * PostgreSQL an implementation over LISTEN/NOTIFY replaces this one without touching the
 * GraphQL subscription or the relay.
 */
export interface LiveEventBus {
  publish(event: LiveEvent): void;
  subscribe(): AsyncIterable<LiveEvent>;
  /** Whether anyone listens (so payloads are only rendered when someone will read them). */
  readonly listening: boolean;
}

export class InProcessEventBus implements LiveEventBus {
  private readonly pubsub = createPubSub<{ events: [LiveEvent] }>();
  private listeners = 0;

  get listening(): boolean {
    return this.listeners > 0;
  }

  publish(event: LiveEvent): void {
    this.pubsub.publish('events', event);
  }

  subscribe(): AsyncIterable<LiveEvent> {
    const source = this.pubsub.subscribe('events');
    // Counting happens when iteration starts and ends, which covers a client disconnecting.
    const bus = this;
    return {
      [Symbol.asyncIterator]() {
        const iterator = source[Symbol.asyncIterator]();
        bus.listeners++;
        let open = true;
        const close = () => {
          if (open) bus.listeners--;
          open = false;
        };
        return {
          next: () => iterator.next(),
          return: async (value?: unknown) => {
            close();
            return iterator.return ? iterator.return(value) : { done: true as const, value: undefined };
          },
          throw: async (error?: unknown) => {
            close();
            if (iterator.throw) return iterator.throw(error);
            throw error;
          },
        } as AsyncIterator<LiveEvent>;
      },
    };
  }
}
