import type { ApiClient } from './http-client.js';
import type { Credentials } from './credentials.js';
import type { CompanyId, SoakPair, SoakSubscriber } from './data.js';
import type { ReceiverKind } from './receivers.js';

/** A subscription the run made; every event of its pair and company after `confirmedAt` must reach its receiver. */
export interface SoakSubscription {
  id: number;
  companyId: CompanyId;
  pair: SoakPair;
  receiver: ReceiverKind;
  /** When the create answered: the subscription was committed by then. */
  confirmedAt: number;
  updates: number;
}

const SUBSCRIPTION_FIELDS = 'subscriptionId uri isActive event eventType';
const CREATE = `mutation Create($input: CreateEventSubscriptionInput!) {
  createEventSubscription(input: $input) { eventSubscription { ${SUBSCRIPTION_FIELDS} } }
}`;
const UPDATE = `mutation Update($input: UpdateEventSubscriptionInput!) {
  updateEventSubscription(input: $input) { eventSubscription { ${SUBSCRIPTION_FIELDS} } }
}`;

/**
 * Creates and updates subscriptions through REST and GraphQL in turn. Updates only move a
 * subscription between two paths of the same receiver and keep it active, so the set of
 * receivers every event must reach stays known to the run.
 */
export class SubscriptionBook {
  readonly all: SoakSubscription[] = [];
  private turn = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly credentials: Credentials,
    private readonly receiverUrls: Record<ReceiverKind, string>,
  ) {}

  private uriFor(receiver: ReceiverKind, id: number | string, version: number): string {
    return `${this.receiverUrls[receiver]}/hooks/${id}/${version % 2 === 0 ? 'a' : 'b'}`;
  }

  async create(subscriber: SoakSubscriber, pair: SoakPair, receiver: ReceiverKind): Promise<SoakSubscription | null> {
    const filter = subscriber.filters.find((f) => f.pair === pair);
    if (!filter) throw new Error(`subscriber ${subscriber.id} has no filter for ${pair.event}.${pair.eventType}`);
    const token = this.credentials.token(subscriber.companyId, 'developer');
    const uri = this.uriFor(receiver, `new-${this.all.length}`, 0);
    let id: unknown;
    if (this.turn++ % 2 === 0) {
      const res = await this.client.call('POST /api/webhook/subscriptions', 'POST', '/api/webhook/subscriptions', {
        token,
        body: { subscriberId: subscriber.id, uri, webhookSubscriberEventFilterId: filter.id },
        expect: 201,
      });
      id = res?.status === 201 ? (res.body as { data?: { id?: unknown } }).data?.id : undefined;
    } else {
      const data = await this.client.graphql('POST /graphql createEventSubscription', token, CREATE, {
        input: { subscriberId: subscriber.id, uri, event: pair.event, eventType: pair.eventType },
      });
      id = (data?.createEventSubscription as { eventSubscription?: { subscriptionId?: unknown } } | undefined)?.eventSubscription?.subscriptionId;
    }
    if (typeof id !== 'number') return null;
    const subscription = { id, companyId: subscriber.companyId, pair, receiver, confirmedAt: Date.now(), updates: 0 };
    this.all.push(subscription);
    return subscription;
  }

  /** Points one subscription at its receiver's other path and re-asserts it is active. */
  async updateOne(): Promise<void> {
    const subscription = this.all[Math.floor(Math.random() * this.all.length)];
    if (!subscription) return;
    subscription.updates++;
    const token = this.credentials.token(subscription.companyId, 'developer');
    const uri = this.uriFor(subscription.receiver, subscription.id, subscription.updates);
    if (this.turn++ % 2 === 0) {
      await this.client.call('PUT /api/webhook/subscriptions/:id', 'PUT', `/api/webhook/subscriptions/${subscription.id}`, {
        token,
        body: { uri, isActive: true },
        expect: 200,
      });
    } else {
      await this.client.graphql('POST /graphql updateEventSubscription', token, UPDATE, {
        input: { subscriptionId: subscription.id, uri, isActive: true },
      });
    }
  }
}
