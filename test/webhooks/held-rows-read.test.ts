import { describe, expect, it, vi } from 'vitest';
import { appWithoutDispatcher, backlogAt, deliverAll, deliveriesOf, ONE_SEND_PER_DESTINATION } from './support.js';

/** The repository as it is, counting claims, reads of rows leased ahead and reads of events for sends. */
const counts = vi.hoisted(() => ({ claims: 0, heldReads: 0, eventReads: 0 }));

vi.mock('../../src/repositories/webhook-deliveries.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/repositories/webhook-deliveries.js')>();
  return {
    ...actual,
    leaseDueDeliveries: async (...args: Parameters<typeof actual.leaseDueDeliveries>) => {
      counts.claims++;
      return actual.leaseDueDeliveries(...args);
    },
    readLeased: async (...args: Parameters<typeof actual.readLeased>) => {
      counts.heldReads++;
      return actual.readLeased(...args);
    },
    eventsForSend: async (...args: Parameters<typeof actual.eventsForSend>) => {
      counts.eventReads++;
      return actual.eventsForSend(...args);
    },
  };
});

const reset = () => Object.assign(counts, { claims: 0, heldReads: 0, eventReads: 0 });

describe('rows leased ahead, read again before they are sent', () => {
  const suite = appWithoutDispatcher(ONE_SEND_PER_DESTINATION);

  it('leave their events unread when the bodies were just rendered', async () => {
    const { t, receiver } = suite;
    const count = 24;
    const subscriptionId = await backlogAt(t, `${receiver.url}/rendered`, 9700, count);
    const joined: string[] = [];
    const onQuery = (query: { sql: string }) => {
      if (/JOIN webhook_events/.test(query.sql)) joined.push(query.sql);
    };
    reset();
    t.app.db.on('query', onQuery);
    try {
      await deliverAll(t, subscriptionId);
    } finally {
      t.app.db.off('query', onQuery);
    }
    expect(counts.heldReads).toBeGreaterThan(0);
    expect(counts.eventReads).toBe(0);
    // Only claims read deliveries joined with their events; the reads before sending do not.
    expect(joined.length).toBeLessThanOrEqual(counts.claims);
    expect(receiver.received.filter((r) => r.path === '/rendered')).toHaveLength(count);
  });

  it('read the events of bodies not at hand, and send the stored bytes', async () => {
    const { t, receiver } = suite;
    const count = 12;
    const subscriptionId = await backlogAt(t, `${receiver.url}/stored`, 9800, count);
    // Bodies stored before this dispatcher saw them (another dispatcher's, or an earlier attempt's):
    // nothing is rendered, and the dispatcher's renderer has none of them at hand.
    const eventIds = (await deliveriesOf(t.app.db, subscriptionId)).map((d) => Number(d.event_id));
    for (const id of eventIds) await t.app.db('webhook_events').where({ id }).update({ payload: JSON.stringify({ stored: id }) });
    reset();
    await deliverAll(t, subscriptionId);
    expect(counts.heldReads).toBeGreaterThan(0);
    expect(counts.eventReads).toBeGreaterThan(0);
    const deliveries = await deliveriesOf(t.app.db, subscriptionId);
    const sent = receiver.received.filter((r) => r.path === '/stored');
    expect(sent).toHaveLength(count);
    for (const request of sent) {
      const delivery = deliveries.find((d) => d.webhook_id === request.headers['webhook-id'])!;
      expect(JSON.parse(request.body)).toEqual({ stored: Number(delivery.event_id) });
    }
  });
});
