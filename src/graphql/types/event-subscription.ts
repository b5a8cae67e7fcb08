import { loadSubscriptions } from '../../repositories/subscriptions.js';
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

recordField('eventSubscription', EventSubscription, DEVELOPER_ONLY, 'subscriptionId', 'One subscription of the calling key’s company (developer keys).');
