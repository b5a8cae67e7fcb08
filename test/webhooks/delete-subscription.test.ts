import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { withoutWrites } from '../rest/http.js';
import type { TestApp } from '../support/test-app.js';
import { deliveriesOf, importTimesheets, startReceiver, startWebhookApp, subscribe, waitFor, type Receiver } from './support.js';

describe('deleting a subscription stops its deliveries', () => {
  let t: TestApp;
  let receiver: Receiver;
  let developer: string;

  beforeAll(async () => {
    t = await startWebhookApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('cancels a pending delivery, which is never sent, and keeps the event', async () => {
    // Nothing is sent while the dispatcher is stopped, so the delivery is still pending at the delete.
    await t.app.webhooks.dispatcher.stop();
    const deleted = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/deleted` });
    await importTimesheets(t.app.db, [{ timesheetId: 9001, siteId: 100, employeeId: 1001, status: 'approved' }]);
    const [pending] = await deliveriesOf(t.app.db, deleted);
    expect(pending).toMatchObject({ state: 'pending' });

    const res = await t.request('DELETE', `/api/webhook/subscriptions/${deleted}`, { token: developer });
    expect(expectEnvelope(res, 200).data).toMatchObject({ id: deleted, uri: `${receiver.url}/deleted` });
    const [cancelled] = await deliveriesOf(t.app.db, deleted);
    expect(cancelled).toMatchObject({ id: pending!.id, state: 'cancelled', lease_owner: null });
    expect(cancelled!.completed_at).not.toBeNull();

    // A later subscription on the same receiver is served; by then the cancelled one would have been too.
    const sentinel = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/sentinel` });
    t.app.webhooks.dispatcher.start();
    await importTimesheets(t.app.db, [{ timesheetId: 9002, siteId: 101, employeeId: 1001, status: 'approved' }]);
    await waitFor(async () => (await deliveriesOf(t.app.db, sentinel)).some((d) => d.state === 'delivered'), 'the sentinel delivery');
    expect(receiver.received.filter((r) => r.path === '/deleted')).toEqual([]);
    expect(await deliveriesOf(t.app.db, deleted)).toMatchObject([{ state: 'cancelled', attempt_count: 0 }]);
    expect(await t.app.db('webhook_events').where({ id: pending!.event_id }).first()).toBeDefined();

    // No new event reaches it either.
    await importTimesheets(t.app.db, [{ timesheetId: 9003, siteId: 110, employeeId: 1002, status: 'approved' }]);
    expect(await deliveriesOf(t.app.db, deleted)).toHaveLength(1);
  });

  it('answers the subscription and a redelivery with 404 afterwards, and shows the delivery as cancelled in its log', async () => {
    await t.app.webhooks.dispatcher.stop();
    const id = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/gone-later` });
    await importTimesheets(t.app.db, [{ timesheetId: 9005, siteId: 100, employeeId: 1001, status: 'approved' }]);
    const [delivery] = await deliveriesOf(t.app.db, id);
    const before = expectEnvelope(await t.request('GET', `/api/webhook/subscriptions/${id}/deliveries`, { token: developer }), 200);
    expect(before.data).toMatchObject([{ deliveryId: delivery!.id, state: 'pending', completedDateTime: null }]);
    expectEnvelope(await t.request('DELETE', `/api/webhook/subscriptions/${id}`, { token: developer }), 200);
    t.app.webhooks.dispatcher.start();
    expectFailure(await t.request('GET', `/api/webhook/subscriptions/${id}`, { token: developer }), 404);
    const log = expectEnvelope(await t.request('GET', `/api/webhook/subscriptions/${id}/deliveries`, { token: developer }), 200);
    expect(log.data).toMatchObject([{ deliveryId: delivery!.id, state: 'cancelled', attemptCount: 0, attempts: [] }]);
    expect(log.data[0].completedDateTime).not.toBeNull();
    const gql = await t.graphql(developer, 'query ($id: Int!) { subscriptionDeliveries(subscriptionId: $id) { edges { node { deliveryId state } } } }', { id });
    expect(gql.body.data.subscriptionDeliveries.edges).toEqual([{ node: { deliveryId: delivery!.id, state: 'cancelled' } }]);
    expectFailure(
      await withoutWrites(t, () => t.request('POST', `/api/webhook/subscriptions/${id}/deliveries/${delivery!.id}/redeliver`, { token: developer })),
      404,
    );
    expect(await deliveriesOf(t.app.db, id)).toMatchObject([{ state: 'cancelled' }]);
    // Still only the company's own: another company's developer key gets 404, a timesheet key 403.
    const other = await t.token({ type: 'developer', companyId: 2 });
    expectFailure(await t.request('GET', `/api/webhook/subscriptions/${id}/deliveries`, { token: other }), 404);
    const timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
    expectFailure(await t.request('GET', `/api/webhook/subscriptions/${id}/deliveries`, { token: timesheetKey }), 403);
  });
});
