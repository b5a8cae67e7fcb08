import { badInput } from '../../errors.js';
import { checkCatalogPair, EVENT_CATALOG } from '../../webhooks/catalog.js';
import type { LiveEvent } from '../../webhooks/live-bus.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY } from '../types/access.js';

interface LivePayload {
  type: string;
  timestamp: string;
  data: unknown;
}

const LiveWebhookEvent = builder.objectRef<LivePayload>('LiveWebhookEvent').implement({
  description: 'The same body a webhook receiver gets.',
  fields: (t) => ({
    type: t.exposeString('type', { description: '"<event>.<eventType>"' }),
    timestamp: t.expose('timestamp', { type: 'DateTime' }),
    data: t.expose('data', { type: 'JSON', nullable: true, description: 'The record as the REST read returns it.' }),
  }),
});

async function* filtered(source: AsyncIterable<LiveEvent>, match: (e: LiveEvent) => boolean): AsyncGenerator<LivePayload> {
  for await (const event of source) {
    if (match(event)) yield JSON.parse(event.payload) as LivePayload;
  }
}

builder.subscriptionField('events', (t) =>
  t.field({
    type: LiveWebhookEvent,
    authScopes: DEVELOPER_ONLY,
    description: 'Streams events of the caller’s company as they happen (server-sent events), optionally one event or pair.',
    args: { event: t.arg.string(), eventType: t.arg.string() },
    subscribe: (_root, args, context) => {
      const bus = context.services.webhooks?.bus;
      if (!bus) throw new Error('live events are not available in this process');
      if (args.event != null && args.eventType != null) checkCatalogPair(args.event, args.eventType);
      else if (args.event != null && !EVENT_CATALOG.some((e) => e.event === args.event)) {
        throw badInput(`${args.event} is not an event of the catalog`);
      }
      const companyId = context.principal.companyId;
      // The same company rule as webhook deliveries: another company's events never reach this stream.
      return filtered(
        bus.subscribe(),
        (e) =>
          e.companyId === companyId &&
          (args.event == null || e.event === args.event) &&
          (args.eventType == null || e.eventType === args.eventType),
      );
    },
    resolve: (payload) => payload,
  }),
);
