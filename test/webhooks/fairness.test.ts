import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.js';
import { importTimesheets, silent, startRawReceiver, startReceiver, startWebhookApp, subscribe, waitFor, type RawReceiver, type Receiver } from './support.js';

// Sends to a receiver that never answers last the whole time-out; a long one makes any
// head-of-line blocking impossible to miss within the deadlines below.
const HANGING = { WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '30000', WEBHOOK_CONCURRENCY: '8' };

const companyOneTimesheets = (from: number, count: number, status = 'Pending') =>
  Array.from({ length: count }, (_, i) => ({ timesheetId: from + i, siteId: 100, employeeId: 1001, status }));

describe('one tenant’s hanging receiver does not hold up the others', () => {
  let t: TestApp;
  let hanging: RawReceiver;
  let healthy: Receiver;

  beforeAll(async () => {
    t = await startWebhookApp(HANGING);
    hanging = await startRawReceiver(silent);
    healthy = await startReceiver();
  });
  afterAll(async () => {
    // Closing the receivers first ends the sends in flight, so the dispatcher stops at once.
    await hanging?.close();
    await healthy?.close();
    await t?.close();
  });

  it('delivers company 2’s event while company 1’s receiver hangs on 40 of them', async () => {
    const { concurrencyPerSubscription } = t.app.config.webhooks;
    const one = await t.token({ type: 'developer', companyId: 1 });
    const two = await t.token({ type: 'developer', companyId: 2 });
    const stuck = await subscribe(t, one, { subscriberId: 302, uri: `${hanging.url}/hangs`, event: 'timesheet', eventType: 'created' });
    await subscribe(t, two, { subscriberId: 401, uri: `${healthy.url}/company-2` });
    await importTimesheets(t.app.db, companyOneTimesheets(9400, 40));
    await waitFor(() => hanging.open >= concurrencyPerSubscription, 'company 1’s deliveries to be hanging');

    await importTimesheets(t.app.db, [{ timesheetId: 9500, siteId: 200, employeeId: 2001, status: 'Approved' }]);
    // A correctness deadline (the poll interval is 20 ms): well under the 10 s a hanging send lasts.
    const [request] = await waitFor(() => healthy.received.length > 0 && healthy.received, 'company 2’s delivery', 3000);
    expect(JSON.parse(request!.body).data.timesheetId).toBe(9500);

    // The hanging subscription never had more than its share in flight, and the rest of its
    // rows were left unclaimed for any dispatcher to take when room frees up.
    expect(hanging.peakOpen).toBeLessThanOrEqual(concurrencyPerSubscription);
    const leased = await t.app.db('webhook_deliveries').where({ subscription_id: stuck }).whereNotNull('lease_owner').count({ n: '*' });
    expect(Number(leased[0]!.n)).toBeLessThanOrEqual(concurrencyPerSubscription);
    const attempts = await t.app.db('webhook_attempts as a').join('webhook_deliveries as d', 'd.id', 'a.delivery_id').where('d.subscription_id', stuck).count({ n: '*' });
    expect(Number(attempts[0]!.n), 'a row held back by the cap is not an attempt').toBe(0);
  });
});

describe('several subscriptions on one hanging host share its cap', () => {
  let t: TestApp;
  let hanging: RawReceiver;

  beforeAll(async () => {
    t = await startWebhookApp({ ...HANGING, WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '2', WEBHOOK_CONCURRENCY_PER_HOST: '3' });
    hanging = await startRawReceiver(silent);
  });
  afterAll(async () => {
    await hanging?.close();
    await t?.close();
  });

  it('keeps at most WEBHOOK_CONCURRENCY_PER_HOST sends open to one host, and stop() waits for them', async () => {
    const one = await t.token({ type: 'developer', companyId: 1 });
    await subscribe(t, one, { subscriberId: 301, uri: `${hanging.url}/approved` });
    await subscribe(t, one, { subscriberId: 302, uri: `${hanging.url}/created`, event: 'timesheet', eventType: 'created' });
    // Each approved timesheet is a created and an approved event: two subscriptions, one host.
    await importTimesheets(t.app.db, companyOneTimesheets(9600, 20, 'Approved'));
    await waitFor(() => hanging.open >= 3, 'the host’s share to be hanging');
    // Later rounds had every chance to add more.
    await new Promise((r) => setTimeout(r, 300));
    expect(hanging.peakOpen).toBe(3);

    const dispatcher = t.app.webhooks.dispatcher;
    const stopping = dispatcher.stop();
    await hanging.close();
    await stopping;
    // Every send in flight was recorded before stop() returned: no lease is left behind.
    const leased = await t.app.db('webhook_deliveries').whereNotNull('lease_owner').count({ n: '*' });
    expect(Number(leased[0]!.n)).toBe(0);
    const attempts = await t.app.db('webhook_attempts').count({ n: '*' });
    expect(Number(attempts[0]!.n)).toBe(3);
  });
});
