import { conflict, notFound } from '../../shared/errors.js';
import { loadSubscriptions } from '../../repositories/subscriptions.js';
import { findDelivery, requeueDelivery } from '../../repositories/webhook-deliveries.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY } from '../types/access.js';
import { Delivery } from '../types/delivery.js';

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
