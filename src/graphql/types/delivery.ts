import { DEFAULT_PAGE_SIZE, keysetConnection } from '../../shared/pagination/keyset.js';
import { attemptsOf, deliveryPage, type AttemptRecord, type DeliveryRecord } from '../../repositories/webhook-deliveries.js';
import { builder } from '../builder.js';
import { EventSubscription } from './event-subscription.js';

export const DEFAULT_DELIVERY_PAGE_SIZE = DEFAULT_PAGE_SIZE;

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

export const Delivery = builder.objectRef<DeliveryRecord>('WebhookDelivery').implement({
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
      description: 'Every attempt, oldest first.',
      load: (ids: number[], context) => attemptsOf(context.services.db, ids),
      resolve: (d) => d.deliveryId,
    }),
  }),
});

// The subscription was loaded through its own scoped loader, so its deliveries are in scope too.
builder.objectField(EventSubscription, 'deliveries', (t) =>
  t.connection({
    type: Delivery,
    description: 'The delivery log, newest first.',
    resolve: (subscription, args, context) => {
      const { db, cursors } = context.services;
      const list = {
        kind: 'delivery',
        owner: subscription.subscriptionId,
        filter: undefined,
        defaultSize: DEFAULT_DELIVERY_PAGE_SIZE,
      };
      return keysetConnection({
        args,
        list,
        codec: cursors,
        fetch: (page) => deliveryPage(db, subscription.subscriptionId, page),
        keyOf: (d) => d.deliveryId,
      });
    },
  }),
);
