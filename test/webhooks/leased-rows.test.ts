import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsAheadLimits, type Dispatcher } from '../../src/workers/dispatcher.js';
import { expectEnvelope } from '../support/envelope.js';
import type { TestApp } from '../support/test-app.js';
import { deliveriesOf, dispatcherOf, type HoldingReceiver, importTimesheets, ONE_SEND_PER_DESTINATION, startHoldingReceiver, startWebhookApp, subscribe, waitFor } from './support.js';

// One send at a time per host and subscription, no poll during a test, and a lease long enough
// that nothing expires by itself: rows leased ahead only move when the dispatcher moves them.
const SETTINGS = ONE_SEND_PER_DESTINATION;

const leasedRows = async (t: TestApp, subscriptionId: number) =>
  (await deliveriesOf(t.app.db, subscriptionId)).filter((d) => d.state === 'pending' && d.lease_owner !== null);

describe('rows leased ahead for a destination', () => {
  let t: TestApp;
  let receiver: HoldingReceiver;
  let dispatcher: Dispatcher | undefined;
  let developer: string;
  let nextTimesheet = 9800;
  const subscriptions: number[] = [];

  beforeAll(async () => {
    t = await startWebhookApp(SETTINGS);
    // The test's own dispatcher is the only one sending.
    await t.app.webhooks.dispatcher.stop();
    developer = await t.token({ type: 'developer', companyId: 1 });
  });
  afterEach(async () => {
    receiver?.release();
    await dispatcher?.stop();
    await receiver?.close();
    // Later events must not reach this test's receiver, now closed.
    for (const id of subscriptions.splice(0)) await t.request('DELETE', `/api/webhook/subscriptions/${id}`, { token: developer });
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * `count` deliveries to a fresh receiver; returns once the first was answered, the second is
   * held open by the receiver, and rows have been leased ahead for the host.
   */
  async function heldWithRowsAhead(count: number, owner: string) {
    receiver = await startHoldingReceiver();
    const subscriptionId = await subscribe(t, developer, { subscriberId: 302, uri: `${receiver.url}/held`, event: 'timesheet', eventType: 'created' });
    subscriptions.push(subscriptionId);
    await importTimesheets(
      t.app.db,
      Array.from({ length: count }, () => ({ timesheetId: nextTimesheet++, siteId: 100, employeeId: 1001 })),
    );
    dispatcher = dispatcherOf(t, owner);
    dispatcher.start();
    await waitFor(() => receiver.held === 1, 'the second send to be held');
    const { perHost } = rowsAheadLimits(t.app.config.webhooks);
    // The answered send's record may wait a few milliseconds to share a transaction, its row
    // leased until then: wait for it, so what is counted below is the held send and the rows ahead.
    const answered = receiver.received[0]!.id;
    await waitFor(
      async () => (await deliveriesOf(t.app.db, subscriptionId)).some((d) => d.webhook_id === answered && d.state === 'delivered'),
      'the answered send recorded',
    );
    // The send in flight and the rows leased ahead (the answered send asked for them).
    const leased = await waitFor(async () => {
      const rows = await leasedRows(t, subscriptionId);
      return rows.length > 1 && rows;
    }, 'rows leased ahead');
    const inFlight = receiver.received[1]!.id;
    const ahead = leased.filter((d) => d.webhook_id !== inFlight);
    return { subscriptionId, ahead, perHost };
  }

  it('holds no more than its bound per destination', async () => {
    const { subscriptionId, ahead, perHost } = await heldWithRowsAhead(12, 'bounds');
    expect(ahead.length).toBeGreaterThan(0);
    expect(ahead.length).toBeLessThanOrEqual(perHost);
    // The rest stay unleased, for any dispatcher to take.
    const pending = (await deliveriesOf(t.app.db, subscriptionId)).filter((d) => d.state === 'pending');
    expect(pending.filter((d) => d.lease_owner === null).length).toBe(12 - 2 - ahead.length);
    receiver.release();
    await waitFor(async () => (await deliveriesOf(t.app.db, subscriptionId)).every((d) => d.state === 'delivered'), 'every delivery');
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(12);
  });

  it('does not send a row leased ahead whose lease passed to another dispatcher', async () => {
    const { subscriptionId, ahead } = await heldWithRowsAhead(6, 'loses-lease');
    // Another dispatcher holds them now (as after an expiry), for longer than this test lasts.
    const taken = ahead.map((d) => Number(d.id));
    await t.app.db('webhook_deliveries').whereIn('id', taken).update({ lease_owner: 'another-dispatcher', lease_expires_at: '2999-01-01T00:00:00.000Z' });

    receiver.release();
    await waitFor(
      async () => (await deliveriesOf(t.app.db, subscriptionId)).filter((d) => !taken.includes(Number(d.id))).every((d) => d.state === 'delivered'),
      'every delivery still leased to this dispatcher',
    );
    await dispatcher!.stop();
    const takenIds = new Set(ahead.map((d) => String(d.webhook_id)));
    expect(receiver.received.filter((r) => takenIds.has(r.id))).toEqual([]);
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of (await deliveriesOf(t.app.db, subscriptionId)).filter((row) => taken.includes(Number(row.id)))) {
      expect(d).toMatchObject({ state: 'pending', attempt_count: 0, lease_owner: 'another-dispatcher' });
    }
    const attempts = await t.app.db('webhook_attempts').whereIn('delivery_id', taken).count({ n: '*' });
    expect(Number(attempts[0]!.n)).toBe(0);
  });

  it('does not send a row leased ahead once its subscription is deleted', async () => {
    const { subscriptionId, ahead } = await heldWithRowsAhead(4, 'deleted');
    expectEnvelope(await t.request('DELETE', `/api/webhook/subscriptions/${subscriptionId}`, { token: developer }), 200);
    // A later subscription to the same host: its row can only go once the held send ends, and
    // the rows leased ahead are looked at first, so by its arrival theirs has been decided.
    const sentinel = await subscribe(t, developer, { subscriberId: 302, uri: `${receiver.url}/sentinel`, event: 'timesheet', eventType: 'created' });
    subscriptions.push(sentinel);
    await importTimesheets(t.app.db, [{ timesheetId: nextTimesheet++, siteId: 100, employeeId: 1001 }]);
    receiver.release();
    await waitFor(async () => (await deliveriesOf(t.app.db, sentinel)).some((d) => d.state === 'delivered'), 'the sentinel delivery');
    await dispatcher!.stop();
    const aheadIds = new Set(ahead.map((d) => String(d.webhook_id)));
    expect(receiver.received.filter((r) => aheadIds.has(r.id))).toEqual([]);
    expect(receiver.received.filter((r) => r.path === '/held')).toHaveLength(2);
    for (const d of await deliveriesOf(t.app.db, subscriptionId)) {
      if (aheadIds.has(String(d.webhook_id))) expect(d).toMatchObject({ state: 'cancelled', attempt_count: 0 });
    }
  });

  it('gives rows leased ahead back when it stops', async () => {
    const { subscriptionId, ahead } = await heldWithRowsAhead(5, 'stops');
    // Stopping first: the held send ends after it, and nothing more is sent.
    const stopping = dispatcher!.stop();
    receiver.release();
    await stopping;
    // Whatever was still held ahead at the stop is due again at once, not leased until expiry.
    const leased = await leasedRows(t, subscriptionId);
    expect(leased).toEqual([]);
    expect(ahead.length).toBeGreaterThan(0);
  });
});
