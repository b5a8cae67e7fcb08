import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Dispatcher } from '../../src/workers/dispatcher.js';
import type { TestApp } from '../support/test-app.js';
import { deliveriesOf, dispatcherOf, type HoldingReceiver, importTimesheets, ONE_SEND_PER_DESTINATION, startHoldingReceiver, startWebhookApp, subscribe, waitFor } from './support.js';

/**
 * The repository as it is, except that reading leased rows again fails while `failReads` is set,
 * and a claim waits while `claimGate` is set: a claim held there keeps one claim sequence under
 * way, so sends that end meanwhile are all looked at by the next one.
 */
const control = vi.hoisted(() => ({
  failReads: false,
  readFailures: 0,
  claimGate: null as Promise<void> | null,
  claimsHeld: 0,
}));

/** What a failing read throws: the message is logged; the connection string beside it must not be. */
const DB_PASSWORD = 'reread-db-password-7f3a';
function readError(): Error {
  return Object.assign(new Error('read of leased rows failed: connection reset'), {
    connectionString: `postgres://gateway:${DB_PASSWORD}@db.internal:5432/shiftgate`,
  });
}

vi.mock('../../src/repositories/webhook-deliveries.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/repositories/webhook-deliveries.js')>();
  return {
    ...actual,
    readLeased: async (...args: Parameters<typeof actual.readLeased>) => {
      if (control.failReads) {
        control.readFailures++;
        throw readError();
      }
      return actual.readLeased(...args);
    },
    leaseDueDeliveries: async (...args: Parameters<typeof actual.leaseDueDeliveries>) => {
      const gate = control.claimGate;
      if (gate) {
        control.claimsHeld++;
        await gate;
      }
      return actual.leaseDueDeliveries(...args);
    },
  };
});

// One send at a time per destination and subscription, no poll during the test, and a lease
// that only expires when the test's clock is moved past it.
const SETTINGS = ONE_SEND_PER_DESTINATION;
const LEASE_MS = 60_000;
// Per destination: one answered, one held open, and one left, leased ahead (a top-up would take more if there were more).
const DELIVERIES = 3;

describe('a failed read of rows leased ahead', () => {
  let t: TestApp;
  let dispatcher: Dispatcher | undefined;
  const receivers: HoldingReceiver[] = [];
  let errors: MockInstance<typeof console.error>;

  beforeAll(async () => {
    t = await startWebhookApp(SETTINGS);
    // The test's own dispatcher is the only one sending.
    await t.app.webhooks.dispatcher.stop();
    errors = vi.spyOn(console, 'error');
  });
  afterAll(async () => {
    control.failReads = false;
    control.claimGate = null;
    for (const receiver of receivers) receiver.release();
    await dispatcher?.stop();
    for (const receiver of receivers) await receiver.close();
    errors?.mockRestore();
    await t?.close();
  });

  it('frees the slots of every group it took, sends nothing twice and loses nothing', async () => {
    const developer = await t.token({ type: 'developer', companyId: 1 });
    const one = await startHoldingReceiver();
    const two = await startHoldingReceiver();
    receivers.push(one, two);
    // Two destinations (ports), so rows leased ahead for each are held under a lease token of their own.
    const subscriptions = [
      await subscribe(t, developer, { subscriberId: 302, uri: `${one.url}/one`, event: 'timesheet', eventType: 'created' }),
      await subscribe(t, developer, { subscriberId: 302, uri: `${two.url}/two`, event: 'timesheet', eventType: 'created' }),
    ];
    await importTimesheets(
      t.app.db,
      Array.from({ length: DELIVERIES }, (_, i) => ({ timesheetId: 9900 + i, siteId: 100, employeeId: 1001 })),
    );
    const allDeliveries = async () => [...(await deliveriesOf(t.app.db, subscriptions[0]!)), ...(await deliveriesOf(t.app.db, subscriptions[1]!))];
    expect(await allDeliveries()).toHaveLength(2 * DELIVERIES);

    // The dispatcher's clock stands still unless moved: rows leased ahead stay young enough to
    // send, and leases end only when the test moves it past them.
    let clock = Date.now();
    dispatcher = dispatcherOf(t, 'reread-failure', () => clock);
    const deliver = vi.spyOn(dispatcher, 'deliver');
    dispatcher.start();

    // Each destination: its first send answered, its second held open, and a row leased ahead.
    await waitFor(() => one.held === 1 && two.held === 1, 'the second send to each destination to be held');
    // An answered send's record may wait a few milliseconds to share a transaction, its row leased
    // until then: wait for both, so what is counted below is the held sends and the rows ahead.
    const answered = [one, two].map((receiver) => receiver.received[0]!.id);
    await waitFor(async () => {
      const rows = await allDeliveries();
      return answered.every((id) => rows.some((d) => d.webhook_id === id && d.state === 'delivered'));
    }, 'the answered sends recorded');
    for (const subscriptionId of subscriptions) {
      const leased = (await deliveriesOf(t.app.db, subscriptionId)).filter((d) => d.state === 'pending' && d.lease_owner !== null);
      expect(leased).toHaveLength(2);
    }
    const tokens = new Set(
      (await allDeliveries()).filter((d) => d.state === 'pending' && d.lease_owner !== null).map((d) => String(d.lease_owner)),
    );
    // Two rows in flight (claimed or leased ahead) and two leased ahead, under different tokens.
    expect(tokens.size).toBeGreaterThanOrEqual(2);

    // Hold one claim sequence at its claim (both destinations are at their cap, so it takes
    // nothing), then let both held sends end: the next sequence finds both destinations free
    // and both rows leased ahead sendable, two lease groups in one go.
    let openGate!: () => void;
    control.claimGate = new Promise<void>((resolve) => (openGate = resolve));
    await waitFor(() => {
      if (control.claimsHeld > 0) return true;
      dispatcher!.wake();
      return false;
    }, 'a claim to be held');
    one.release();
    two.release();
    await waitFor(
      () => deliver.mock.calls.length === 4 && deliver.mock.settledResults.every((r) => r.type === 'fulfilled'),
      'both held sends to be recorded',
    );
    control.failReads = true;
    control.claimGate = null;
    openGate();

    const logged = () => errors.mock.calls.filter((args) => args[0] === 'webhook dispatcher:');
    await waitFor(() => logged().length > 0, 'the failed read to be logged');
    expect(control.readFailures).toBe(1);
    expect(logged()).toEqual([['webhook dispatcher:', 'Error: read of leased rows failed: connection reset']]);
    // Neither row was sent: both keep their lease, with no attempt.
    expect(deliver).toHaveBeenCalledTimes(4);
    const unsent = (await allDeliveries()).filter((d) => d.state === 'pending' && d.lease_owner !== null);
    expect(unsent).toHaveLength(2);
    expect(new Set(unsent.map((d) => Number(d.subscription_id)))).toEqual(new Set(subscriptions));
    for (const d of unsent) expect(d.attempt_count).toBe(0);

    // Reads work again and the leases run out: every delivery goes, once. A slot left taken by
    // either group would hold its destination at its cap for good, and its rows would never go.
    control.failReads = false;
    clock += LEASE_MS + 1;
    dispatcher.wake();
    await waitFor(async () => (await allDeliveries()).every((d) => d.state === 'delivered'), 'every delivery to be delivered');
    const expected = (await allDeliveries()).map((d) => String(d.webhook_id)).sort();
    const received = [...one.received, ...two.received].map((request) => request.id);
    expect([...received].sort()).toEqual(expected);
    expect(new Set(received).size).toBe(2 * DELIVERIES);
    expect(one.received).toHaveLength(DELIVERIES);
    expect(two.received).toHaveLength(DELIVERIES);
    const ids = (await allDeliveries()).map((d) => Number(d.id));
    const attempts = (await t.app.db('webhook_attempts').whereIn('delivery_id', ids).select('delivery_id')) as { delivery_id: number }[];
    expect(attempts).toHaveLength(2 * DELIVERIES);
    expect(new Set(attempts.map((a) => Number(a.delivery_id))).size).toBe(2 * DELIVERIES);
    expect(control.readFailures).toBe(1);

    // What was logged holds no secret: not the database's password, nor the subscriber's signing secrets.
    const subscriber = (await t.app.db('subscribers').where({ id: 302 }).first('signing_secret', 'previous_signing_secret')) as Record<string, string | null>;
    const secrets = [DB_PASSWORD, subscriber.signing_secret, subscriber.previous_signing_secret].filter((s): s is string => Boolean(s));
    expect(secrets.length).toBeGreaterThan(1);
    const output = errors.mock.calls.map((args) => args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 5 }))).join(' ')).join('\n');
    for (const secret of secrets) expect(output).not.toContain(secret);
  });
});
