import { describe, expect, it, vi } from 'vitest';
import { appWithoutDispatcher, backlogAt, deliverAll, deliveriesOf, ONE_SEND_PER_DESTINATION } from './support.js';

/** The repository as it is, counting the transactions that store bodies and the bodies in each. */
const stores = vi.hoisted(() => ({ single: 0, batches: [] as number[] }));

vi.mock('../../src/repositories/webhook-events.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/repositories/webhook-events.js')>();
  return {
    ...actual,
    storePayloadOnce: async (...args: Parameters<typeof actual.storePayloadOnce>) => {
      stores.single++;
      return actual.storePayloadOnce(...args);
    },
    storePayloadsOnce: async (...args: Parameters<typeof actual.storePayloadsOnce>) => {
      stores.batches.push(args[1].length);
      return actual.storePayloadsOnce(...args);
    },
  };
});

describe('bodies of rows leased ahead', () => {
  const suite = appWithoutDispatcher(ONE_SEND_PER_DESTINATION);

  it('are rendered together and stored in a few transactions, and every send carries the stored body', async () => {
    const { t, receiver } = suite;
    const count = 24;
    const subscriptionId = await backlogAt(t, `${receiver.url}/ahead`, 9600, count);
    await deliverAll(t, subscriptionId);
    // One event per delivery here: without rendering ahead, each would be stored on its own.
    const transactions = stores.single + stores.batches.length;
    expect(stores.batches.some((size) => size > 1)).toBe(true);
    expect(transactions).toBeLessThanOrEqual(count / 3);
    // Each body went out exactly as stored on its event.
    const deliveries = await deliveriesOf(t.app.db, subscriptionId);
    const events = (await t.app.db('webhook_events')
      .whereIn('id', deliveries.map((d) => Number(d.event_id)))
      .select('id', 'payload')) as { id: number; payload: string | null }[];
    const payloadOf = new Map(events.map((e) => [Number(e.id), e.payload]));
    const sent = receiver.received.filter((r) => r.path === '/ahead');
    expect(sent).toHaveLength(count);
    for (const request of sent) {
      const delivery = deliveries.find((d) => d.webhook_id === request.headers['webhook-id'])!;
      expect(request.body).toBe(payloadOf.get(Number(delivery.event_id)));
      expect(JSON.parse(request.body)).toMatchObject({ type: 'timesheet.created', data: { timesheetId: expect.any(Number) } });
    }
  });
});
