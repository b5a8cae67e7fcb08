import { notFound } from '../../shared/errors.js';
import { loadSubscriptions, markSubscriptionDeleted } from '../../repositories/subscriptions.js';
import { cancelPendingDeliveries } from '../../repositories/webhook-deliveries.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY } from '../types/access.js';
import { EventSubscriptionPayload } from './create-event-subscription.js';

const DeleteEventSubscriptionInput = builder.inputType('DeleteEventSubscriptionInput', {
  fields: (t) => ({
    subscriptionId: t.int({ required: true }),
  }),
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
