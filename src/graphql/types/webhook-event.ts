import { EVENT_CATALOG, type CatalogEntry } from '../../webhooks/catalog.js';
import { builder } from '../builder.js';
import { listCap } from '../cost.js';
import { DEVELOPER_ONLY } from './access.js';

const WebhookEvent = builder.objectRef<CatalogEntry>('WebhookEvent').implement({
  description: 'One event/eventType pair of the catalog that subscriptions and event filters may use.',
  fields: (t) => ({
    event: t.exposeString('event'),
    eventType: t.exposeString('eventType'),
    description: t.exposeString('description'),
  }),
});

builder.queryField('webhookEvents', (t) =>
  t.field({
    type: [WebhookEvent],
    authScopes: DEVELOPER_ONLY,
    description: 'The event catalog: every event/eventType pair shiftgate can deliver.',
    extensions: listCap(EVENT_CATALOG.length),
    resolve: () => [...EVENT_CATALOG],
  }),
);
