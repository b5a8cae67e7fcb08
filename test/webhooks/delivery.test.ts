import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.js';
import {
  deliveriesOf,
  importTimesheets,
  stallingOk,
  startRawReceiver,
  startReceiver,
  startWebhookApp,
  subscribe,
  waitFor,
  type Receiver,
} from './support.js';
import { storedBoolean } from '../support/backend.js';

const SECRET_301 = 'whsec_' + Buffer.from('a'.repeat(32)).toString('base64');

describe('webhook delivery to a real receiver', () => {
  let t: TestApp;
  let receiver: Receiver;
  let developer: string;
  let timesheetToken: string;

  beforeAll(async () => {
    t = await startWebhookApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
    timesheetToken = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());
  afterEach(() => receiver?.close());

  it('signs with the subscriber secret (verified by standardwebhooks) and sends the REST record', async () => {
    receiver = await startReceiver();
    const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/approved` });
    await importTimesheets(t.app.db, [{ timesheetId: 9001, siteId: 100, employeeId: 1001, status: 'approved' }]);

    const [request] = await waitFor(() => receiver.received.length > 0 && receiver.received, 'the approved event');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toMatch(/^msg_/);
    expect(request!.headers['webhook-timestamp']).toMatch(/^\d+$/);
    const verified = new Webhook(SECRET_301).verify(request!.body, {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: unknown };
    expect(verified.type).toBe('timesheet.approved');
    expect(new Date(verified.timestamp).toISOString()).toBe(verified.timestamp);
    const rest = await t.request('GET', '/api/external/timesheets/9001', { token: timesheetToken });
    expect(verified.data).toEqual(rest.body.data);

    const [delivery] = await waitFor(async () => {
      const rows = await deliveriesOf(t.app.db, subscriptionId);
      return rows[0]?.state === 'delivered' && rows;
    }, 'delivered state');
    expect(delivery!.webhook_id).toBe(request!.headers['webhook-id']);
  });

  it('never delivers another company’s events', async () => {
    receiver = await startReceiver();
    const other = await t.token({ type: 'developer', companyId: 2 });
    const mine = await subscribe(t, developer, { subscriberId: 302, uri: `${receiver.url}/created`, event: 'timesheet', eventType: 'created' });
    const theirs = await subscribe(t, other, { subscriberId: 401, uri: `${receiver.url}/other` });
    // A new company-2 timesheet (created + approved) and a new company-1 timesheet (created).
    await importTimesheets(t.app.db, [
      { timesheetId: 9105, siteId: 200, employeeId: 2001, status: 'Pending' },
      { timesheetId: 9106, siteId: 100, employeeId: 1001, status: 'Pending' },
    ]);
    await waitFor(() => receiver.received.some((r) => r.path === '/created'), 'company 1 delivery');
    expect(await deliveriesOf(t.app.db, theirs)).toEqual([]);
    const bodies = receiver.received.filter((r) => r.path === '/created').map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.data.timesheetId)).toEqual([9106]);
    expect((await deliveriesOf(t.app.db, mine)).length).toBe(1);
  });

  it('retries after 500s with the same webhook-id, then succeeds; attempts are logged', async () => {
    receiver = await startReceiver();
    let calls = 0;
    receiver.respond(() => (++calls <= 2 ? { status: 500, body: 'x'.repeat(5000) } : { status: 204 }));
    const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/flaky` });
    await importTimesheets(t.app.db, [{ timesheetId: 9002, siteId: 101, employeeId: 1001, status: 'Approved' }]);
    await waitFor(async () => (await deliveriesOf(t.app.db, subscriptionId))[0]?.state === 'delivered', 'delivery after retries');
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(receiver.received).toHaveLength(3);
    expect(ids.size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);

    const log = await t.request('GET', `/api/webhook/subscriptions/${subscriptionId}/deliveries`, { token: developer });
    expect(log.status).toBe(200);
    const [entry] = log.body.data;
    expect(entry).toMatchObject({ event: 'timesheet', eventType: 'approved', state: 'delivered', webhookId: [...ids][0] });
    expect(entry.attempts.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([500, 500, 204]);
    // The receiver's body is only ever a short excerpt.
    expect(entry.attempts[0].error.length).toBeLessThan(260);
  });

  it('gives up after the schedule and marks the delivery failed', async () => {
    receiver = await startReceiver();
    receiver.respond(() => ({ status: 502 }));
    const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/down` });
    await importTimesheets(t.app.db, [{ timesheetId: 9003, siteId: 110, employeeId: 1002, status: 'APPROVED' }]);
    const [row] = await waitFor(async () => {
      const rows = await deliveriesOf(t.app.db, subscriptionId);
      return rows[0]?.state === 'failed' && rows;
    }, 'failed state');
    // One first attempt plus one per schedule entry (three in the test schedule).
    expect(row!.attempt_count).toBe(4);
    expect(receiver.received).toHaveLength(4);
  });

  it('deactivates the subscription at once on 410 Gone', async () => {
    receiver = await startReceiver();
    receiver.respond(() => ({ status: 410 }));
    const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/gone` });
    const before = (await t.app.db('subscriptions').where({ id: subscriptionId }).first()) as Record<string, string>;
    await importTimesheets(t.app.db, [{ timesheetId: 9107, siteId: 100, employeeId: 1001, status: 'Approved' }]);
    await waitFor(async () => (await deliveriesOf(t.app.db, subscriptionId))[0]?.state === 'failed', 'failed after 410');
    expect(receiver.received).toHaveLength(1);
    const list = await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token: developer });
    const record = list.body.data.find((s: { id: number }) => s.id === subscriptionId);
    expect(record.isActive).toBe(false);
    expect(record.modifiedDateTime > String(before.modified_date_time)).toBe(true);
  });

  it('deactivates a subscription that has failed everything for WEBHOOK_DISABLE_AFTER_HOURS', async () => {
    receiver = await startReceiver();
    receiver.respond(() => ({ status: 500 }));
    const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/broken` });
    // Its failures began 121 hours ago (the default limit is 120): the next failure ends it.
    const since = new Date(Date.now() - 121 * 3600 * 1000).toISOString();
    await t.app.db('subscriptions').where({ id: subscriptionId }).update({ failing_since: since });
    await importTimesheets(t.app.db, [{ timesheetId: 9110, siteId: 100, employeeId: 1001, status: 'Approved' }]);
    await waitFor(async () => {
      const row = await t.app.db('subscriptions').where({ id: subscriptionId }).first();
      return row && !row.is_active && row;
    }, 'deactivation');
    const list = await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token: developer });
    expect(list.body.data.find((s: { id: number }) => s.id === subscriptionId).isActive).toBe(false);
    // A success clears the failure clock, so a healthy subscription is never caught by it.
    receiver.respond(() => ({ status: 200 }));
    const healthy = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/healthy` });
    await t.app.db('subscriptions').where({ id: healthy }).update({ failing_since: since });
    await importTimesheets(t.app.db, [{ timesheetId: 9111, siteId: 100, employeeId: 1001, status: 'Approved' }]);
    await waitFor(async () => (await deliveriesOf(t.app.db, healthy))[0]?.state === 'delivered', 'healthy delivery');
    expect(await t.app.db('subscriptions').where({ id: healthy }).first()).toMatchObject({ is_active: storedBoolean(true), failing_since: null });
  });

  it('closes the socket of a 2xx whose body never ends within WEBHOOK_TIMEOUT_MS, and records it as delivered', async () => {
    const stalling = await startRawReceiver(stallingOk);
    try {
      const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${stalling.url}/stalls` });
      await importTimesheets(t.app.db, [{ timesheetId: 9112, siteId: 100, employeeId: 1001, status: 'Approved' }]);
      await waitFor(() => stalling.requests === 1, 'the delivery to arrive');
      // A correctness deadline, several times the 2 s time-out: without a bound the socket stays open for good.
      await waitFor(() => stalling.closed === 1, 'the connection to be closed', 15_000);
      const [row] = await waitFor(async () => {
        const rows = await deliveriesOf(t.app.db, subscriptionId);
        return rows[0]?.state === 'delivered' && rows;
      }, 'delivered state');
      const attempts = await t.app.db('webhook_attempts').where({ delivery_id: row!.id });
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ http_status: 200, error: 'response body not finished within 2000 ms' });
      expect(stalling.requests).toBe(1);
    } finally {
      await stalling.close();
    }
  });

  it('honours Retry-After on 429 instead of the shorter schedule', async () => {
    receiver = await startReceiver();
    receiver.respond(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/busy` });
    await importTimesheets(t.app.db, [{ timesheetId: 9108, siteId: 100, employeeId: 1001, status: 'Approved' }]);
    const [row] = await waitFor(async () => {
      const rows = await deliveriesOf(t.app.db, subscriptionId);
      return rows[0]?.attempt_count === 1 && rows;
    }, 'first attempt');
    const [attempt] = await t.app.db('webhook_attempts').where({ delivery_id: row!.id });
    expect(row!.state).toBe('pending');
    expect(Date.parse(row!.next_attempt_at) - Date.parse(attempt.attempted_at)).toBeGreaterThanOrEqual(3600 * 1000);
  });

  it('redelivers on request (REST and GraphQL) with the same webhook-id, scoped like the subscription', async () => {
    receiver = await startReceiver();
    const subscriptionId = await subscribe(t, developer, { subscriberId: 301, uri: `${receiver.url}/again` });
    await importTimesheets(t.app.db, [{ timesheetId: 9109, siteId: 100, employeeId: 1001, status: 'Approved' }]);
    const [row] = await waitFor(async () => {
      const rows = await deliveriesOf(t.app.db, subscriptionId);
      return rows[0]?.state === 'delivered' && rows;
    }, 'first delivery');

    const other = await t.token({ type: 'developer', companyId: 2 });
    const path = `/api/webhook/subscriptions/${subscriptionId}/deliveries/${row!.id}/redeliver`;
    expect((await t.request('POST', path, { token: other })).status).toBe(404);
    expect((await t.request('GET', `/api/webhook/subscriptions/${subscriptionId}/deliveries`, { token: other })).status).toBe(404);
    expect((await t.request('POST', path, { token: timesheetToken })).status).toBe(403);

    // Clients that always send a JSON body send `{}`: as good as none.
    const res = await t.request('POST', path, { token: developer, body: {} });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ deliveryId: row!.id, state: 'pending', webhookId: row!.webhook_id });
    await waitFor(() => receiver.received.length === 2, 'REST redelivery');

    const gql = await t.graphql(
      developer,
      'mutation($s: Int!, $d: Int!) { redeliverWebhook(input: { subscriptionId: $s, deliveryId: $d }) { delivery { webhookId state } } }',
      { s: subscriptionId, d: row!.id },
    );
    expect(gql.body.data.redeliverWebhook.delivery.webhookId).toBe(row!.webhook_id);
    await waitFor(() => receiver.received.length === 3, 'GraphQL redelivery');
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });
});
