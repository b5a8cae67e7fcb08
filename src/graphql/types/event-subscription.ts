import { nextModifiedTime } from '../../shared/clock.js';
import { badInput, notFound } from '../../shared/errors.js';
import { createOnce, idempotentRequest, recall } from '../../repositories/idempotency-keys.js';
import {
  eventFiltersOf,
  insertSubscription,
  loadSubscribers,
  loadSubscriptions,
  markSubscriptionDeleted,
  updateSubscriptionRow,
  type EventFilterRecord,
  type SubscriptionRecord,
} from '../../repositories/subscriptions.js';
import { cancelPendingDeliveries } from '../../repositories/webhook-deliveries.js';
import { checkCatalogPair } from '../../webhooks/catalog.js';
import { checkDeliveryTarget } from '../../webhooks/delivery-uri.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY, recordField, scopedNode } from './access.js';

// Named EventSubscription so it cannot be confused with GraphQL's root Subscription type;
// the REST record's integer `id` is `subscriptionId` here, and `id` is the global node id.
export const EventSubscription = builder.loadableNode('EventSubscription', {
  description: 'Binds a delivery URI to one event/eventType pair of a subscriber (docs/rest-api.md, Event subscription).',
  ...scopedNode('Subscription', DEVELOPER_ONLY, loadSubscriptions, (s) => s.subscriptionId),
  fields: (t) => ({
    subscriptionId: t.exposeInt('subscriptionId'),
    subscriberId: t.exposeInt('subscriberId'),
    webhookSubscriberEventFilterId: t.exposeInt('webhookSubscriberEventFilterId'),
    uri: t.exposeString('uri'),
    isActive: t.exposeBoolean('isActive'),
    event: t.exposeString('event'),
    eventType: t.exposeString('eventType'),
    createdDateTime: t.expose('createdDateTime', { type: 'DateTime' }),
    modifiedDateTime: t.expose('modifiedDateTime', { type: 'DateTime' }),
  }),
});

recordField('eventSubscription', EventSubscription, DEVELOPER_ONLY, {
  arg: 'subscriptionId',
  description: 'One subscription of the calling key’s company (developer keys).',
});

const CreateEventSubscriptionInput = builder.inputType('CreateEventSubscriptionInput', {
  fields: (t) => ({
    subscriberId: t.int({ required: true }),
    uri: t.string({ required: true, description: 'Absolute http(s) URL that receives the events.' }),
    event: t.string({ description: 'With eventType: which of the subscriber’s pairs to subscribe to.' }),
    eventType: t.string(),
    webhookSubscriberEventFilterId: t.int({ description: 'Alternatively, the event filter by id.' }),
    idempotencyKey: t.string({
      description:
        'Makes the create safe to repeat: within 24 hours the same key (per API key) with the same input returns the subscription as first created, without creating another; with other input it is a CONFLICT. 1–255 printable ASCII characters.',
    }),
  }),
});

/** The subscription by id, or (a create) the record as written, which a repeated create answers again. */
const EventSubscriptionPayload = builder
  .objectRef<{ subscriptionId: number; subscription?: SubscriptionRecord }>('EventSubscriptionPayload')
  .implement({
    fields: (t) => ({
      eventSubscription: t.field({ type: EventSubscription, resolve: (payload) => payload.subscription ?? payload.subscriptionId }),
    }),
  });

/**
 * The contract's create body has only subscriberId and uri, yet a subscription binds one
 * event/eventType pair: the pair is chosen explicitly, or is the subscriber's only one.
 */
function chooseFilter(
  filters: EventFilterRecord[],
  subscriberId: number,
  choice: { event?: string | null; eventType?: string | null; webhookSubscriberEventFilterId?: number | null },
): EventFilterRecord {
  const { event, eventType, webhookSubscriberEventFilterId: byId } = choice;
  if ((event != null) !== (eventType != null)) throw badInput('event and eventType must be given together');
  const candidates = filters.filter(
    (f) => (byId == null || f.webhookSubscriberEventFilterId === byId) && (event == null || (f.event === event && f.eventType === eventType)),
  );
  if (candidates.length === 1) return candidates[0]!;
  const problem =
    byId != null || event != null
      ? `Subscriber ${subscriberId} has no event filter matching that choice`
      : `Subscriber ${subscriberId} has ${filters.length === 0 ? 'no' : 'several'} event filters; choose one with event and eventType or webhookSubscriberEventFilterId`;
  const pairs = filters.map((f) => `${f.event}/${f.eventType} (webhookSubscriberEventFilterId ${f.webhookSubscriberEventFilterId})`);
  throw badInput(`${problem}: ${pairs.length === 0 ? 'it has no event filters' : `its pairs are ${pairs.join(', ')}`}`);
}

builder.mutationField('createEventSubscription', (t) =>
  t.field({
    type: EventSubscriptionPayload,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description: 'Subscribes a delivery URI to one of a subscriber’s event/eventType pairs. New subscriptions are active.',
    args: { input: t.arg({ type: CreateEventSubscriptionInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const { db, now } = context.services;
      const at = now();
      const once = idempotentRequest('createEventSubscription', input, context.principal.keyId, at);
      // A repeat is answered before anything is checked again: the first answer stands.
      const earlier = once && (await recall<SubscriptionRecord>(db, once));
      if (earlier) return { subscriptionId: earlier.subscriptionId, subscription: earlier };
      if (input.subscriberId < 1) throw badInput('subscriberId must be a positive integer');
      if (input.event != null && input.eventType != null) checkCatalogPair(input.event, input.eventType);
      const uri = await checkDeliveryTarget(input.uri, context.services.webhooks.guard);
      const [subscriber] = await loadSubscribers(db, context.principal, [input.subscriberId]);
      if (!subscriber) throw notFound(`Subscriber ${input.subscriberId} not found`);
      const [filters = []] = await eventFiltersOf(db, [subscriber.subscriberId]);
      const filter = chooseFilter(filters, subscriber.subscriberId, input);
      checkCatalogPair(filter.event, filter.eventType);
      // The same URI may be subscribed more than once (each subscription is its own delivery
      // stream with its own log), as webhook senders generally allow.
      const subscription = await createOnce(db, once, async (trx) => {
        const subscriptionId = await insertSubscription(
          trx,
          { subscriberId: subscriber.subscriberId, eventFilterId: filter.webhookSubscriberEventFilterId, uri, now: at.toISOString() },
          context.services.webhooks.maxSubscriptionsPerSubscriber,
        );
        const [created] = await loadSubscriptions(trx, context.principal, [subscriptionId]);
        if (!created) throw new Error(`subscription ${subscriptionId} not readable after its insert`);
        return created;
      });
      return { subscriptionId: subscription.subscriptionId, subscription };
    },
  }),
);

const UpdateEventSubscriptionInput = builder.inputType('UpdateEventSubscriptionInput', {
  fields: (t) => ({
    subscriptionId: t.int({ required: true }),
    uri: t.string({ description: 'New delivery URI.' }),
    isActive: t.boolean({ description: 'Deliver (true) or pause (false).' }),
  }),
});

builder.mutationField('updateEventSubscription', (t) =>
  t.field({
    type: EventSubscriptionPayload,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description: 'Changes the delivery URI or the active state of a subscription; at least one must be given.',
    args: { input: t.arg({ type: UpdateEventSubscriptionInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const { db, now } = context.services;
      if (input.subscriptionId < 1) throw badInput('subscriptionId must be a positive integer');
      if (input.uri === undefined && input.isActive === undefined) throw badInput('Give uri, isActive or both');
      if (input.uri === null) throw badInput('uri must be a string');
      if (input.isActive === null) throw badInput('isActive must be a boolean');
      const uri = input.uri === undefined ? undefined : await checkDeliveryTarget(input.uri, context.services.webhooks.guard);
      await db.transaction(async (trx) => {
        const [current] = await loadSubscriptions(trx, context.principal, [input.subscriptionId]);
        if (!current) throw notFound(`Subscription ${input.subscriptionId} not found`);
        await updateSubscriptionRow(trx, current.subscriptionId, {
          uri,
          isActive: input.isActive ?? undefined,
          now: nextModifiedTime(now(), current.modifiedDateTime),
        });
      });
      return { subscriptionId: input.subscriptionId };
    },
  }),
);

const DeleteEventSubscriptionInput = builder.inputType('DeleteEventSubscriptionInput', {
  fields: (t) => ({ subscriptionId: t.int({ required: true }) }),
});

builder.mutationField('deleteEventSubscription', (t) =>
  t.field({
    type: EventSubscriptionPayload,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description:
      'Deletes a subscription: it is no longer read, listed or delivered to, and its pending deliveries become cancelled. Returns the subscription as it was.',
    args: { input: t.arg({ type: DeleteEventSubscriptionInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const { db, now } = context.services;
      const subscription = await db.transaction(async (trx) => {
        const [current] = await loadSubscriptions(trx, context.principal, [input.subscriptionId]);
        // A concurrent delete that got there first leaves nothing to delete here either.
        if (!current || !(await markSubscriptionDeleted(trx, current.subscriptionId, now().toISOString()))) {
          throw notFound(`Subscription ${input.subscriptionId} not found`);
        }
        await cancelPendingDeliveries(trx, current.subscriptionId, now().toISOString());
        return current;
      });
      return { subscriptionId: subscription.subscriptionId, subscription };
    },
  }),
);
