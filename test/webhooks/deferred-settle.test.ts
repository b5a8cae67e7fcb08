import { describe, expect, it } from 'vitest';
import { deliveriesOf, dispatcherOf, importTimesheets, appWithoutDispatcher, subscribe, waitFor } from './support.js';

/**
 * Delivered attempts are recorded a few milliseconds late, in shared transactions, with their
 * slots freed before the write: stop() must still leave every one of them written, each
 * delivery sent once and recorded once.
 */
describe('delivered attempts recorded after their slot is freed', () => {
  const app = appWithoutDispatcher();

  it('stop() writes every record still waiting: each delivery delivered, once, with one attempt', async () => {
    const token = await app.t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(app.t, token, { subscriberId: 302, uri: `${app.receiver.url}/deferred`, event: 'timesheet', eventType: 'created' });
    const count = 40;
    await importTimesheets(
      app.t.app.db,
      Array.from({ length: count }, (_, i) => ({ timesheetId: 9800 + i, siteId: 100, employeeId: 1001 })),
    );
    const dispatcher = dispatcherOf(app.t, 'deferred');
    dispatcher.start();
    try {
      await waitFor(() => app.receiver.received.filter((r) => r.path === '/deferred').length >= count, 'every webhook received');
    } finally {
      // No wait for any record here: stop() alone must leave them written.
      await dispatcher.stop();
    }
    const deliveries = await deliveriesOf(app.t.app.db, subscriptionId);
    expect(deliveries).toHaveLength(count);
    expect(deliveries.every((d) => d.state === 'delivered' && Number(d.attempt_count) === 1 && d.lease_owner === null)).toBe(true);
    const attempts = (await app.t.app.db('webhook_attempts').whereIn(
      'delivery_id',
      deliveries.map((d) => d.id as number),
    )) as { delivery_id: number; http_status: number; instance_id: string }[];
    expect(attempts).toHaveLength(count);
    expect(new Set(attempts.map((a) => Number(a.delivery_id))).size).toBe(count);
    expect(attempts.every((a) => Number(a.http_status) === 200 && a.instance_id === 'deferred')).toBe(true);
    const ids = app.receiver.received.filter((r) => r.path === '/deferred').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(count);
    expect(new Set(ids)).toEqual(new Set(deliveries.map((d) => d.webhook_id)));
  });

  it('a 410 mid-stream pauses the subscription before any send after its answer: nothing more arrives', async () => {
    const token = await app.t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(app.t, token, { subscriberId: 302, uri: `${app.receiver.url}/gone`, event: 'timesheet', eventType: 'created' });
    let answered = 0;
    let goneAt = -1;
    app.receiver.respond((req) => {
      if (req.path !== '/gone') return { status: 200 };
      answered++;
      if (answered === 6) goneAt = app.receiver.received.length;
      return { status: answered >= 6 ? 410 : 200 };
    });
    await importTimesheets(
      app.t.app.db,
      Array.from({ length: 30 }, (_, i) => ({ timesheetId: 9900 + i, siteId: 100, employeeId: 1001 })),
    );
    const dispatcher = dispatcherOf(app.t, 'gone');
    dispatcher.start();
    try {
      await waitFor(async () => {
        const [row] = (await app.t.app.db('subscriptions').where({ id: subscriptionId })) as { is_active: unknown }[];
        return row && !row.is_active;
      }, 'subscription paused');
      // Let anything queued behind the 410 have its chance to (wrongly) go out.
      await waitFor(async () => (await deliveriesOf(app.t.app.db, subscriptionId)).every((d) => d.state !== 'pending' || d.lease_owner === null), 'leases settled');
    } finally {
      await dispatcher.stop();
      app.receiver.respond(() => ({ status: 200 }));
    }
    // Sends already in flight when the 410 arrived (the subscription's cap of 2) may be answered; nothing after.
    const toGone = app.receiver.received.filter((r) => r.path === '/gone').length;
    expect(goneAt).toBeGreaterThan(0);
    expect(toGone).toBeLessThanOrEqual(6 + 1);
    const deliveries = await deliveriesOf(app.t.app.db, subscriptionId);
    expect(deliveries.filter((d) => d.state === 'delivered')).toHaveLength(5);
  });
});
