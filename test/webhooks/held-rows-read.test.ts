import { describe, expect, it, vi } from 'vitest';
import { appWithoutDispatcher, backlogAt, deliverAll, deliveriesOf, ONE_SEND_PER_DESTINATION } from './support.js';

/** The repository as it is, counting reads of rows leased ahead. */
const counts = vi.hoisted(() => ({ heldReads: 0 }));

vi.mock('../../src/repositories/webhook-deliveries.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/repositories/webhook-deliveries.js')>();
  return {
    ...actual,
    readLeased: async (...args: Parameters<typeof actual.readLeased>) => {
      counts.heldReads++;
      return actual.readLeased(...args);
    },
  };
});

describe('rows leased ahead, read again before they are sent', () => {
  const suite = appWithoutDispatcher(ONE_SEND_PER_DESTINATION);

  async function sentAsStored(subscriptionId: number, path: string, count: number) {
    const { t, receiver } = suite;
    const deliveries = await deliveriesOf(t.app.db, subscriptionId);
    const events = (await t.app.db('webhook_events')
      .whereIn('id', deliveries.map((d) => Number(d.event_id)))
      .select('id', 'payload')) as { id: number; payload: string | null }[];
    const payloadOf = new Map(events.map((e) => [Number(e.id), e.payload]));
    const sent = receiver.received.filter((r) => r.path === path);
    expect(sent).toHaveLength(count);
    expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(count);
    for (const request of sent) {
      const delivery = deliveries.find((d) => d.webhook_id === request.headers['webhook-id'])!;
      expect(request.body).toBe(payloadOf.get(Number(delivery.event_id)));
    }
    return sent;
  }

  it('send each body as rendered and stored on its event', async () => {
    const { t, receiver } = suite;
    const count = 24;
    const subscriptionId = await backlogAt(t, `${receiver.url}/rendered`, 9700, count);
    counts.heldReads = 0;
    await deliverAll(t, subscriptionId);
    expect(counts.heldReads).toBeGreaterThan(0);
    for (const request of await sentAsStored(subscriptionId, '/rendered', count)) {
      expect(JSON.parse(request.body)).toMatchObject({ type: 'timesheet.created', data: { timesheetId: expect.any(Number) } });
    }
  });

  it('send the bytes stored before, without rendering again', async () => {
    const { t, receiver } = suite;
    const count = 12;
    const subscriptionId = await backlogAt(t, `${receiver.url}/stored`, 9800, count);
    // Bodies stored before this dispatcher saw them (another dispatcher's, or an earlier attempt's).
    const eventIds = (await deliveriesOf(t.app.db, subscriptionId)).map((d) => Number(d.event_id));
    for (const id of eventIds) await t.app.db('webhook_events').where({ id }).update({ payload: JSON.stringify({ stored: id }) });
    counts.heldReads = 0;
    await deliverAll(t, subscriptionId);
    expect(counts.heldReads).toBeGreaterThan(0);
    const deliveries = await deliveriesOf(t.app.db, subscriptionId);
    for (const request of await sentAsStored(subscriptionId, '/stored', count)) {
      const delivery = deliveries.find((d) => d.webhook_id === request.headers['webhook-id'])!;
      expect(JSON.parse(request.body)).toEqual({ stored: Number(delivery.event_id) });
    }
  });
});
