import { nextModifiedTime } from '../../shared/clock.js';
import { checkDeliveryTarget } from '../../webhooks/delivery-uri.js';
import { badInput, notFound } from '../../shared/errors.js';
import { loadSubscriptions, updateSubscriptionRow } from '../../repositories/subscriptions.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY } from '../types/access.js';
import { EventSubscriptionPayload } from './create-event-subscription.js';

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
