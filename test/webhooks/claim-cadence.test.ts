import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { Dispatcher } from '../../src/workers/dispatcher.js';
import { PayloadRenderer } from '../../src/workers/payload-renderer.js';
import type { TestApp } from '../support/test-app.js';
import { deliveriesOf, importTimesheets, startReceiver, startWebhookApp, subscribe, waitFor, type Receiver } from './support.js';

// One send at a time to the host, room for more in the pool, and no poll during the test: every
// claim below is one a finished send asked for.
const ONE_AT_A_TIME = {
  WEBHOOK_POLL_INTERVAL_MS: '60000',
  WEBHOOK_CONCURRENCY: '4',
  WEBHOOK_CONCURRENCY_PER_HOST: '1',
  WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '1',
};
const LEASE = /update webhook_deliveries set lease_owner = \S+, lease_expires_at = \S+ where id in/i;
/** A lease ahead for a destination: restricted to the subscriptions seen sending there. */
const TOP_UP = /\+subscription_id in \(/i;

describe('claim cadence with a host at its cap', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startWebhookApp(ONE_AT_A_TIME);
    receiver = await startReceiver();
    // The test's own dispatcher works on the connection whose statements it counts.
    await t.app.webhooks.dispatcher.stop();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('does not scan the backlog again after a claim found nothing outside the capped host', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(t, token, { subscriberId: 302, uri: `${receiver.url}/one`, event: 'timesheet', eventType: 'created' });
    const count = 20;
    await importTimesheets(
      t.app.db,
      Array.from({ length: count }, (_, i) => ({ timesheetId: 9700 + i, siteId: 100, employeeId: 1001 })),
    );
    const config = t.app.config.webhooks;
    const dispatcher = new Dispatcher({
      db: t.app.db,
      config,
      guard: new AddressGuard(config.allowedCidrs),
      renderer: new PayloadRenderer(t.app.db, t.app.execute),
    });
    const { statements } = await t.countStatements(async () => {
      dispatcher.start();
      try {
        await waitFor(async () => (await deliveriesOf(t.app.db, subscriptionId)).every((d) => d.state === 'delivered'), 'every delivery');
      } finally {
        await dispatcher.stop();
      }
    });
    expect(receiver.received).toHaveLength(count);
    // Each freed slot is refilled by at most one lease (a claim, or rows leased ahead for the
    // host, which refill several). Looking again with the host excluded finds nothing new, and
    // doing it anyway after every send would be one scan more each.
    const leases = statements.filter((sql) => LEASE.test(sql)).length;
    expect(leases).toBeGreaterThan(0);
    expect(leases).toBeLessThanOrEqual(count + 3);
  });
});

describe('rows leased ahead for a destination that answers fast', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startWebhookApp(ONE_AT_A_TIME);
    receiver = await startReceiver();
    await t.app.webhooks.dispatcher.stop();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('leases its backlog in a few large top-ups, not one per send or two', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    // The only subscription to its receiver, so every row leased ahead for that host is one of the backlog's.
    const subscriptionId = await subscribe(t, token, { subscriberId: 302, uri: `${receiver.url}/backlog`, event: 'timesheet', eventType: 'created' });
    const count = 48;
    await importTimesheets(
      t.app.db,
      Array.from({ length: count }, (_, i) => ({ timesheetId: 9750 + i, siteId: 100, employeeId: 1001 })),
    );
    const config = t.app.config.webhooks;
    const dispatcher = new Dispatcher({
      db: t.app.db,
      config,
      guard: new AddressGuard(config.allowedCidrs),
      renderer: new PayloadRenderer(t.app.db, t.app.execute),
    });
    const { statements } = await t.countStatements(async () => {
      dispatcher.start();
      try {
        await waitFor(async () => (await deliveriesOf(t.app.db, subscriptionId)).every((d) => d.state === 'delivered'), 'every delivery');
      } finally {
        await dispatcher.stop();
      }
    });
    expect(receiver.received).toHaveLength(count);
    // A loopback receiver answers in milliseconds, so a top-up, due once half of the rows ahead
    // are gone, takes up to eight rounds of the host's one send in flight: at least four rows
    // each. Two rows per top-up would be one for every second send.
    const topUps = statements.filter((sql) => LEASE.test(sql) && TOP_UP.test(sql)).length;
    expect(topUps).toBeGreaterThan(0);
    expect(topUps).toBeLessThanOrEqual(count / 3);
  });
});
