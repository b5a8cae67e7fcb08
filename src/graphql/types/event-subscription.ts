import { notFound } from '../../errors.js';
import { loadSubscriptions, type SubscriptionRecord } from '../../repositories/subscriptions.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY } from './access.js';

// Named EventSubscription so it cannot be confused with GraphQL's root Subscription type;
// the contract's integer `id` is `subscriptionId` here, and `id` is the global node id.
export const EventSubscription = builder.loadableNode('EventSubscription', {
  description: 'Binds a delivery URI to one event/eventType pair of a subscriber (contract 2.4).',
  authScopes: DEVELOPER_ONLY,
  id: { resolve: (s: SubscriptionRecord) => s.subscriptionId, parse: (id: string) => Number(id) },
  // `load` aligns results with ids itself, with an error for each id out of scope. No `sort`
  // option: Pothos' sort rejects the whole batch when one result is an error.
  load: async (ids: number[], context) =>
    (await loadSubscriptions(context.services.db, context.principal, ids)).map(
      (subscription, i) => subscription ?? notFound(`Subscription ${ids[i]} not found`),
    ),
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
