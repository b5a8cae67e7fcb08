import type { GraphQLError } from 'graphql';
import { apiError, badInput } from '../../shared/errors.js';
import { checkCatalogPair, EVENT_CATALOG } from '../../webhooks/catalog.js';
import { MAX_QUEUED_EVENTS, type LiveEvent, type LiveEventBus } from '../../webhooks/live-bus.js';
import type { LiveTicket } from '../../webhooks/live-streams.js';
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

/** What the stream yields: an event, or the error it ends with. */
type LiveItem = { payload: LivePayload } | { error: GraphQLError };

/**
 * The caller's events until the client goes, the stream's credentials lapse (the ticket ends it
 * from outside, which also returns the bus subscription so no wait outlives the stream) or the
 * client falls too far behind. A stream that is cut off says why in one last error.
 */
async function* liveEvents(bus: LiveEventBus, match: (e: LiveEvent) => boolean, ticket: LiveTicket): AsyncGenerator<LiveItem> {
  const subscription = bus.subscribe(match);
  const events = subscription[Symbol.asyncIterator]();
  const stopWatching = ticket.onEnd(() => void events.return?.());
  try {
    for (;;) {
      const next = await events.next();
      // Checked per event too: nothing is delivered after the token's exp, whatever the timer's pace.
      if (next.done || ticket.lapsed()) break;
      yield { payload: JSON.parse(next.value.payload) as LivePayload };
    }
    const error =
      ticket.endedWith ??
      (subscription.lagged ? apiError('RATE_LIMITED', `Live stream fell more than ${MAX_QUEUED_EVENTS} events behind; reconnect`) : null);
    if (error) yield { error };
  } finally {
    stopWatching();
    await events.return?.();
  }
}

builder.subscriptionField('events', (t) =>
  t.field({
    type: LiveWebhookEvent,
    authScopes: DEVELOPER_ONLY,
    description: 'Streams events of the caller’s company as they happen (server-sent events), optionally one event or pair.',
    args: { event: t.arg.string(), eventType: t.arg.string() },
    subscribe: (_root, args, context) => {
      const { bus } = context.services.webhooks;
      // Every stream holds a slot under the caps and is watched for its credentials.
      const ticket = context.liveStream;
      if (!ticket) throw new Error('live stream was not admitted');
      if (args.event != null && args.eventType != null) checkCatalogPair(args.event, args.eventType);
      else if (args.event != null && !EVENT_CATALOG.some((e) => e.event === args.event)) {
        throw badInput(`${args.event} is not an event of the catalog`);
      }
      const companyId = context.principal.companyId;
      // The same company rule as webhook deliveries: another company's events never reach this stream.
      return liveEvents(
        bus,
        (e) =>
          e.companyId === companyId &&
          (args.event == null || e.event === args.event) &&
          (args.eventType == null || e.eventType === args.eventType),
        ticket,
      );
    },
    resolve: (item: LiveItem) => {
      if ('error' in item) throw item.error;
      return item.payload;
    },
  }),
);
