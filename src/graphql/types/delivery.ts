import { keysetConnection, type ConnectionArgs } from '../../shared/pagination/keyset.js';
import {
  attemptsOf,
  deliveryPage,
  findDelivery,
  requeueDelivery,
  type AttemptRecord,
  type DeliveryRecord,
} from '../../repositories/webhook-deliveries.js';
import { loadSubscriptions, subscriptionOfCompany } from '../../repositories/subscriptions.js';
import { conflict, notFound } from '../../shared/errors.js';
import type { GraphQLContext } from '../context.js';
import { builder } from '../builder.js';
import { listCap } from '../cost.js';
import { DEVELOPER_ONLY } from './access.js';
import { EventSubscription } from './event-subscription.js';

/** The most attempts a delivery shows, its latest: each redelivery starts another run of up to eight (seven retries). */
export const MAX_DELIVERY_ATTEMPTS_SHOWN = 50;

const DeliveryAttempt = builder.objectRef<AttemptRecord>('WebhookDeliveryAttempt').implement({
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime' }),
    httpStatus: t.exposeInt('httpStatus', { nullable: true, description: 'Null when no response arrived.' }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the attempt failed; at most a short excerpt of the receiver’s response.',
    }),
  }),
});

const Delivery = builder.objectRef<DeliveryRecord>('WebhookDelivery').implement({
  description: 'One event sent (or to be sent) to one subscription.',
  fields: (t) => ({
    deliveryId: t.exposeInt('deliveryId'),
    webhookId: t.exposeString('webhookId', { description: 'The webhook-id header; the same on every attempt.' }),
    event: t.exposeString('event'),
    eventType: t.exposeString('eventType'),
    // A plain string, like the contract's other state fields (status, isActive …).
    state: t.string({ description: 'pending, delivered, failed, or cancelled (its subscription was deleted).', resolve: (d) => d.state }),
    attemptCount: t.exposeInt('attemptCount', { description: 'Attempts since the delivery was (re)queued.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdDateTime: t.expose('createdDateTime', { type: 'DateTime' }),
    completedDateTime: t.expose('completedDateTime', { type: 'DateTime', nullable: true }),
    attempts: t.loadableList({
      type: DeliveryAttempt,
      description: `The latest ${MAX_DELIVERY_ATTEMPTS_SHOWN} attempts, oldest first.`,
      extensions: listCap(MAX_DELIVERY_ATTEMPTS_SHOWN),
      load: (ids: number[], context) => attemptsOf(context.services.db, ids, MAX_DELIVERY_ATTEMPTS_SHOWN),
      resolve: (d) => d.deliveryId,
    }),
  }),
});

/** A subscription's delivery log, newest first; the caller has checked that the key may read it. */
function deliveryLog(subscriptionId: number, args: ConnectionArgs, context: GraphQLContext) {
  const { db, cursors } = context.services;
  return keysetConnection({
    args,
    list: { kind: 'delivery', owner: subscriptionId },
    codec: cursors,
    fetch: (page) => deliveryPage(db, subscriptionId, page),
    keyOf: (d) => d.deliveryId,
  });
}

// The subscription was loaded through its own scoped loader, so its deliveries are in scope too.
builder.objectField(EventSubscription, 'deliveries', (t) =>
  t.connection({
    type: Delivery,
    description: 'The delivery log, newest first.',
    resolve: (subscription, args, context) => deliveryLog(subscription.subscriptionId, args, context),
  }),
);

// A deleted subscription is gone from every other read, but its log still shows what became of
// its deliveries (cancelled by the delete), so it is reached by id rather than through the node.
builder.queryField('subscriptionDeliveries', (t) =>
  t.connection({
    type: Delivery,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description:
      'The delivery log of a subscription of the calling key’s company, newest first (developer keys); a deleted subscription’s log included, its pending deliveries shown as cancelled.',
    args: { subscriptionId: t.arg.int({ required: true }) },
    resolve: async (_root, args, context) => {
      if (!(await subscriptionOfCompany(context.services.db, context.principal, args.subscriptionId))) {
        throw notFound(`Subscription ${args.subscriptionId} not found`);
      }
      return deliveryLog(args.subscriptionId, args, context);
    },
  }),
);

const RedeliverInput = builder.inputType('RedeliverWebhookInput', {
  fields: (t) => ({
    subscriptionId: t.int({ required: true }),
    deliveryId: t.int({ required: true }),
  }),
});

const RedeliverPayload = builder.objectRef<{ subscriptionId: number; deliveryId: number }>('RedeliverWebhookPayload').implement({
  fields: (t) => ({
    delivery: t.field({
      type: Delivery,
      resolve: async (payload, _args, context) => {
        const delivery = await findDelivery(context.services.db, payload.subscriptionId, payload.deliveryId);
        if (!delivery) throw notFound(`Delivery ${payload.deliveryId} not found`);
        return delivery;
      },
    }),
  }),
});

builder.mutationField('redeliverWebhook', (t) =>
  t.field({
    type: RedeliverPayload,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description: 'Queues a delivery again, due now, with the same webhook-id and body; the retry schedule starts over.',
    args: { input: t.arg({ type: RedeliverInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const { db, now } = context.services;
      // Same scoping as the subscription: outside the caller's company it does not exist.
      const [subscription] = await loadSubscriptions(db, context.principal, [input.subscriptionId]);
      if (!subscription) throw notFound(`Subscription ${input.subscriptionId} not found`);
      const delivery = await findDelivery(db, subscription.subscriptionId, input.deliveryId);
      if (!delivery) throw notFound(`Delivery ${input.deliveryId} not found`);
      if (!subscription.isActive) throw conflict(`Subscription ${subscription.subscriptionId} is not active; activate it first`);
      await requeueDelivery(db, delivery.deliveryId, now());
      return { subscriptionId: subscription.subscriptionId, deliveryId: delivery.deliveryId };
    },
  }),
);
