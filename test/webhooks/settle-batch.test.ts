import { describe, expect, it } from 'vitest';
import { settleDeliveries, type Settlement } from '../../src/repositories/webhook-deliveries.js';
import { isPostgres } from '../../src/shared/db/knex.js';
import { deliveriesOf, dispatcherOf, importTimesheets, appWithoutDispatcher, subscribe, waitFor } from './support.js';

describe('attempts recorded in shared transactions', () => {
  const app = appWithoutDispatcher();

  const dispatcher = (owner: string) => dispatcherOf(app.t, owner);

  const delivered = (deliveryId: number, leaseOwner: string, deliveryIdForAttempt = deliveryId): Settlement => ({
    deliveryId,
    leaseOwner,
    delivery: { state: 'delivered', attempt_count: 1, next_attempt_at: null, completed_at: new Date().toISOString() },
    attempt: { delivery_id: deliveryIdForAttempt, attempted_at: new Date().toISOString(), http_status: 200, duration_ms: 1, error: null, instance_id: 'test' },
    subscriptionId: 0,
  });

  async function attemptsFor(ids: number[]) {
    return (await app.t.app.db('webhook_attempts').whereIn('delivery_id', ids).select('delivery_id')) as { delivery_id: number }[];
  }

  it('moves several deliveries on in one call, and leaves one whose lease passed to another dispatcher', async () => {
    const token = await app.t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(app.t, token, { subscriberId: 302, uri: `${app.receiver.url}/batch`, event: 'timesheet', eventType: 'created' });
    await importTimesheets(app.t.app.db, [9801, 9802, 9803].map((id) => ({ timesheetId: id, siteId: 100, employeeId: 1001 })));
    const rows = (await dispatcher('batch').claim(10)).filter((row) => Number(row.subscription_id) === subscriptionId);
    expect(rows).toHaveLength(3);
    const [a, b, c] = rows.map((row) => ({ id: Number(row.id), owner: row.lease_owner }));
    const moved = await settleDeliveries(app.t.app.db, [
      { ...delivered(a!.id, a!.owner), subscriptionId },
      { ...delivered(b!.id, b!.owner), subscriptionId },
      { ...delivered(c!.id, 'someone-else'), subscriptionId },
    ]);
    expect(moved).toEqual([true, true, false]);
    const states = new Map((await deliveriesOf(app.t.app.db, subscriptionId)).map((d) => [Number(d.id), d.state as string]));
    expect([states.get(a!.id), states.get(b!.id), states.get(c!.id)]).toEqual(['delivered', 'delivered', 'pending']);
    // The attempt under a lost lease is still kept in the log.
    expect((await attemptsFor([a!.id, b!.id, c!.id])).length).toBe(3);
  });

  it("clears a subscription's failing_since once per transaction on SQLite, again after a failure sets it", async () => {
    const db = app.t.app.db;
    const token = await app.t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(app.t, token, { subscriberId: 302, uri: `${app.receiver.url}/clear`, event: 'timesheet', eventType: 'created' });
    await importTimesheets(db, [9821, 9822, 9823, 9824].map((id) => ({ timesheetId: id, siteId: 100, employeeId: 1001 })));
    const rows = (await dispatcher('clear').claim(10)).filter((row) => Number(row.subscription_id) === subscriptionId);
    expect(rows).toHaveLength(4);
    await db('subscriptions').where({ id: subscriptionId }).update({ failing_since: '2020-01-01T00:00:00.000Z' });
    const clears: string[] = [];
    const onQuery = (query: { sql: string }) => {
      if (/SET failing_since = NULL WHERE id = \?/.test(query.sql)) clears.push(query.sql);
    };
    const [a, b, c, d] = rows;
    const failing = new Date().toISOString();
    db.on('query', onQuery);
    try {
      await settleDeliveries(db, [
        { ...delivered(Number(a!.id), a!.lease_owner), subscriptionId, failingSince: null },
        { ...delivered(Number(b!.id), b!.lease_owner), subscriptionId, failingSince: null },
        // A failed attempt sets it again: the next delivered one clears it.
        { ...delivered(Number(c!.id), c!.lease_owner), subscriptionId, failingSince: failing },
        { ...delivered(Number(d!.id), d!.lease_owner), subscriptionId, failingSince: null },
      ]);
    } finally {
      db.off('query', onQuery);
    }
    // Statements inside a PostgreSQL transaction are not announced on the pool: counted on SQLite only.
    if (!isPostgres(db)) expect(clears).toHaveLength(2);
    const [subscription] = (await db('subscriptions').where({ id: subscriptionId }).select('failing_since')) as { failing_since: string | null }[];
    expect(subscription!.failing_since).toBeNull();
  });

  it('a batch that cannot be written records nothing: its deliveries keep their leases and are sent again, never lost', async () => {
    const token = await app.t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(app.t, token, { subscriberId: 302, uri: `${app.receiver.url}/crash`, event: 'timesheet', eventType: 'created' });
    await importTimesheets(app.t.app.db, [9811, 9812].map((id) => ({ timesheetId: id, siteId: 100, employeeId: 1001 })));
    const rows = (await dispatcher('doomed').claim(10, 300)).filter((row) => Number(row.subscription_id) === subscriptionId);
    expect(rows).toHaveLength(2);
    const [a, b] = rows.map((row) => ({ id: Number(row.id), owner: row.lease_owner }));
    // The second record's attempt points at no delivery: the transaction fails part-way.
    await expect(
      settleDeliveries(app.t.app.db, [
        { ...delivered(a!.id, a!.owner), subscriptionId },
        { ...delivered(b!.id, b!.owner, 99_999_999), subscriptionId },
      ]),
    ).rejects.toThrow();
    const after = await deliveriesOf(app.t.app.db, subscriptionId);
    expect(after.map((d) => [d.state, d.lease_owner])).toEqual([
      ['pending', a!.owner],
      ['pending', b!.owner],
    ]);
    expect(await attemptsFor([a!.id, b!.id])).toEqual([]);

    const survivor = dispatcher('survivor');
    survivor.start();
    try {
      await waitFor(async () => (await deliveriesOf(app.t.app.db, subscriptionId)).every((d) => d.state === 'delivered'), 'redelivery after the leases expire');
    } finally {
      await survivor.stop();
    }
    const ids = new Set(app.receiver.received.filter((r) => r.path === '/crash').map((r) => r.headers['webhook-id']));
    expect(ids).toEqual(new Set(rows.map((row) => row.webhook_id)));
  });
});
