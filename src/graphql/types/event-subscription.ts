import { loadSubscriptions, type SubscriptionRecord } from '../../repositories/subscriptions.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY, scopedNodeLoad } from './access.js';

// Named EventSubscription so it cannot be confused with GraphQL's root Subscription type;
// the REST record's integer `id` is `subscriptionId` here, and `id` is the global node id.
export const EventSubscription = builder.loadableNode('EventSubscription', {
  description: 'Binds a delivery URI to one event/eventType pair of a subscriber (docs/rest-api.md, Event subscription).',
  authScopes: DEVELOPER_ONLY,
  id: { resolve: (s: SubscriptionRecord) => s.subscriptionId, parse: (id: string) => Number(id) },
  load: scopedNodeLoad('Subscription', DEVELOPER_ONLY, loadSubscriptions),
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

builder.queryField('eventSubscription', (t) =>
  t.field({
    type: EventSubscription,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description: 'One subscription of the calling key’s company (developer keys).',
    args: { subscriptionId: t.arg.int({ required: true }) },
    resolve: (_root, args) => args.subscriptionId,
  }),
);
