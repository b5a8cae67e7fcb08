import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectFailure } from '../support/envelope.js';

const REFUSED = [
  'http://127.0.0.1/hook',
  'http://localhost/hook',
  'http://10.1.2.3/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'http://240.0.0.1/',
  'http://255.255.255.255/',
  'http://0.0.0.0/',
  'http://0/',
  'http://2130706433/',
  'http://0x7f.1/',
  'http://0177.0.0.1/',
  'http://127.1/',
  'http://[::1]/',
  'http://[::]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'https://127.0.0.1:8443/secure',
];

describe('SSRF guard', () => {
  it('classifies addresses, including IPv4 hidden in IPv6', () => {
    const guard = new AddressGuard();
    for (const address of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '100.127.255.254', '::1', 'fd00::1', 'fe80::1', '::ffff:7f00:1', '::ffff:192.168.0.1']) {
      expect(guard.problem(address), address).not.toBeNull();
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '100.128.0.1']) {
      expect(guard.problem(address), address).toBeNull();
    }
    const open = new AddressGuard(['127.0.0.0/8']);
    expect(open.problem('127.0.0.1')).toBeNull();
    expect(open.problem('::ffff:127.0.0.1')).toBeNull();
    expect(open.problem('10.0.0.1')).not.toBeNull();
  });

  describe('at create and update', () => {
    let t: TestApp;
    let token: string;
    let existing: number;

    beforeAll(async () => {
      t = await startTestApp();
      token = await t.token({ type: 'developer', companyId: 1 });
      const created = await t.request('POST', '/api/webhook/subscriptions', {
        token,
        body: { subscriberId: 301, uri: 'https://hooks.example.com/ok' },
      });
      expect(created.status, created.text).toBe(201);
      existing = created.body.data.id;
    });
    afterAll(() => t.close());

    it.each(REFUSED)('refuses %s with 400 (REST) and BAD_USER_INPUT (GraphQL), writing nothing', async (uri) => {
      const before = await t.app.db('subscriptions').orderBy('id');
      expectFailure(await t.request('POST', '/api/webhook/subscriptions', { token, body: { subscriberId: 301, uri } }), 400);
      expectFailure(await t.request('PUT', `/api/webhook/subscriptions/${existing}`, { token, body: { uri } }), 400);
      const create = await t.graphql(
        token,
        'mutation($uri: String!) { createEventSubscription(input: { subscriberId: 301, uri: $uri }) { eventSubscription { subscriptionId } } }',
        { uri },
      );
      expect(create.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const update = await t.graphql(
        token,
        'mutation($id: Int!, $uri: String!) { updateEventSubscription(input: { subscriptionId: $id, uri: $uri }) { eventSubscription { uri } } }',
        { id: existing, uri },
      );
      expect(update.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(await t.app.db('subscriptions').orderBy('id')).toEqual(before);
    });

    it('refuses other schemes', async () => {
      for (const uri of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/']) {
        expectFailure(await t.request('POST', '/api/webhook/subscriptions', { token, body: { subscriberId: 301, uri } }), 400);
      }
    });
  });

  describe('at delivery time', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_SCHEDULE: '3600' } });
    });
    afterAll(() => t.close());

    it('re-checks the address connected to, so a stored internal URI is never contacted', async () => {
      // Simulates a name that resolved publicly at create time and to loopback later (rebinding).
      const [id] = await t.app.db('subscriptions').insert(
        { subscriber_id: 301, event_filter_id: 3011, uri: 'http://localhost:1/', is_active: true, created_date_time: '2026-01-01T00:00:00.000Z', modified_date_time: '2026-01-01T00:00:00.000Z' },
        ['id'],
      );
      const subscriptionId = typeof id === 'object' ? (id as { id: number }).id : Number(id);
      const { importData } = await import('../../src/import/import-data.js');
      const { emitImportEvents } = await import('../../src/import/events.js');
      await importData(t.app.db, { timesheets: [{ timesheetId: 9301, siteId: 100, employeeId: 1001, status: 'Approved' }] }, { onChanges: emitImportEvents });
      const { waitFor } = await import('./support.js');
      const attempt = await waitFor(async () => {
        const rows = await t.app.db('webhook_attempts as a').join('webhook_deliveries as d', 'd.id', 'a.delivery_id').where('d.subscription_id', subscriptionId);
        return rows[0];
      }, 'a refused attempt');
      expect(attempt.http_status).toBeNull();
      expect(attempt.error).toMatch(/refused/);
    });
  });
});
