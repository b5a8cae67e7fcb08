import { keysetConnection } from '../../shared/pagination/keyset.js';
import { eventFiltersOf, loadSubscribers, subscriptionsOf, type EventFilterRecord } from '../../repositories/subscriptions.js';
import { builder } from '../builder.js';
import { listCap } from '../cost.js';
import { EVENT_CATALOG } from '../../webhooks/catalog.js';
import { DEVELOPER_ONLY, recordField, scopedNode } from './access.js';
import { EventSubscription } from './event-subscription.js';

/**
 * The most subscriptions a subscriber's list returns when asked for no page: the default of
 * MAX_SUBSCRIPTIONS_PER_SUBSCRIBER, fixed so that the schema and the cost it declares are the
 * same on every instance; a subscriber allowed more has the rest behind the page's cursor.
 */
export const MAX_SUBSCRIPTIONS_SHOWN = 1000;

const EventFilter = builder.objectRef<EventFilterRecord>('EventFilter').implement({
  description: 'An event/eventType pair a subscriber may subscribe a URI to.',
  fields: (t) => ({
    webhookSubscriberEventFilterId: t.exposeInt('webhookSubscriberEventFilterId'),
    event: t.exposeString('event'),
    eventType: t.exposeString('eventType'),
  }),
});

export const Subscriber = builder.loadableNode('Subscriber', {
  description: 'A webhook subscriber of the calling key’s company.',
  ...scopedNode('Subscriber', DEVELOPER_ONLY, loadSubscribers, (s) => s.subscriberId),
  fields: (t) => ({
    subscriberId: t.exposeInt('subscriberId'),
    name: t.exposeString('name'),
    eventFilters: t.loadableList({
      type: EventFilter,
      description: 'The pairs this subscriber can subscribe to.',
      // One per catalog pair at most: the table keeps each pair once per subscriber, and only catalog pairs are imported.
      extensions: listCap(EVENT_CATALOG.length),
      load: (subscriberIds: number[], context) => eventFiltersOf(context.services.db, subscriberIds),
      resolve: (subscriber) => subscriber.subscriberId,
    }),
    subscriptions: t.connection({
      type: EventSubscription,
      description: `The subscriber’s subscriptions by id; the first ${MAX_SUBSCRIPTIONS_SHOWN} when no page arguments are given.`,
      extensions: listCap(MAX_SUBSCRIPTIONS_SHOWN),
      resolve: (subscriber, args, context) =>
        keysetConnection({
          args,
          // A page as large as the cap when none is asked for; a cursor then keeps that size too.
          list: { kind: 'subscription', owner: subscriber.subscriberId, defaultSize: MAX_SUBSCRIPTIONS_SHOWN },
          codec: context.services.cursors,
          fetch: (page) => subscriptionsOf(context.services.db, context.principal, subscriber.subscriberId, page),
          keyOf: (s) => s.subscriptionId,
        }),
    }),
  }),
});

recordField('subscriber', Subscriber, DEVELOPER_ONLY, {
  arg: 'subscriberId',
  description: 'One webhook subscriber of the caller’s company (developer keys).',
});
