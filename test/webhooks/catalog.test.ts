import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData, ImportValidationError } from '../../src/import/import-data.js';
import { EVENT_CATALOG } from '../../src/webhooks/catalog.js';
import { emitImportEvents } from '../../src/import/events.js';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PAIRS = [
  'timesheet/created',
  'timesheet/updated',
  'timesheet/approved',
  'license/created',
  'license/updated',
  'license/expiring',
  'license/expired',
];

describe('event catalog', () => {
  let t: TestApp;
  let developer: string;
  beforeAll(async () => {
    t = await startTestApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it('is listed by GET /api/webhook/events and Query.webhookEvents', async () => {
    const env = expectEnvelope(await t.request('GET', '/api/webhook/events', { token: developer }), 200);
    expect(env.data.map((e: { event: string; eventType: string }) => `${e.event}/${e.eventType}`)).toEqual(PAIRS);
    for (const entry of env.data) expect(entry.description).toBeTypeOf('string');
    const gql = await t.graphql(developer, '{ webhookEvents { event eventType description } }');
    expect(gql.body.data.webhookEvents).toEqual(env.data);
    expect(EVENT_CATALOG).toHaveLength(7);
    const timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
    expectFailure(await t.request('GET', '/api/webhook/events', { token: timesheetKey }), 403);
  });

  it('refuses a subscription to a pair outside the catalog', async () => {
    const res = await t.request('POST', '/api/webhook/subscriptions', {
      token: developer,
      body: { subscriberId: 302, uri: 'https://hooks.example.com/x', event: 'timesheet', eventType: 'deleted' },
    });
    expect(expectFailure(res, 400).errors[0]!.message).toMatch(/not in the event catalog/);
    // A filter stored before the catalog existed cannot be subscribed to either.
    await t.app.db('event_filters').insert({ id: 3031, subscriber_id: 303, event: 'roster', event_type: 'published' });
    const legacy = await t.request('POST', '/api/webhook/subscriptions', {
      token: developer,
      body: { subscriberId: 303, uri: 'https://hooks.example.com/y' },
    });
    expectFailure(legacy, 400);
    expect(await t.app.db('subscriptions').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('refuses an imported event filter outside the catalog', async () => {
    const file = {
      subscribers: [{ id: 501, companyId: 1, name: 'Bad filter', eventFilters: [{ id: 5011, event: 'timesheet', eventType: 'deleted' }] }],
    };
    const error = await importData(t.app.db, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportValidationError);
    expect((error as ImportValidationError).problems.join('\n')).toMatch(/timesheet\/deleted is not in the event catalog/);
    expect(await t.app.db('subscribers').where({ id: 501 })).toEqual([]);
  });

  it('emits created/updated/approved from an import, and nothing when the same data is imported again', async () => {
    const file = {
      timesheets: [{ timesheetId: 9401, siteId: 100, employeeId: 1001, status: 'Pending' }],
      licenses: [{ securityLicenseId: 80001, employeeId: 1001, licenseNumber: 'NSW-80001', expiryDate: '2030-01-01', reminder: 30 }],
    };
    const events = () => t.app.db('webhook_events').orderBy('id').select('event', 'event_type', 'record_id');
    await importData(t.app.db, file, { onChanges: emitImportEvents });
    expect(await events()).toEqual([
      { event: 'timesheet', event_type: 'created', record_id: 9401 },
      { event: 'license', event_type: 'created', record_id: 80001 },
    ]);
    await importData(t.app.db, file, { onChanges: emitImportEvents });
    expect(await events()).toHaveLength(2);
    file.timesheets[0]!.status = 'approved';
    await importData(t.app.db, file, { onChanges: emitImportEvents });
    expect((await events()).slice(2)).toEqual([
      { event: 'timesheet', event_type: 'updated', record_id: 9401 },
      { event: 'timesheet', event_type: 'approved', record_id: 9401 },
    ]);
  });
});
