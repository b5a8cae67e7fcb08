import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../support/backend.js';
import type { TestApp } from '../support/test-app.js';
import { emitDataEvents, emitEvent } from '../../src/webhooks/outbox.js';
import { emitImportEvents } from '../../src/import/events.js';
import { startWebhookApp } from './support.js';

// Past each backend's limit on one multi-row INSERT: SQLite's 500 terms of a compound SELECT, and
// PostgreSQL's 65,535 bound parameters (seven columns a delivery row).
const FAN_OUT = onPostgres() ? 9_600 : 501;

describe('fan-out to many subscriptions of one pair', () => {
  let t: TestApp;
  let subscriptionIds: number[];
  beforeAll(async () => {
    t = await startWebhookApp({ MAX_SUBSCRIPTIONS_PER_SUBSCRIBER: String(FAN_OUT) });
    await t.app.webhooks.scheduler.stop();
    await t.app.webhooks.dispatcher.stop();
    const now = new Date().toISOString();
    const rows = Array.from({ length: FAN_OUT }, (_, i) => ({
      subscriber_id: 302,
      event_filter_id: 3021,
      uri: `https://hooks.example.com/fan/${i}`,
      is_active: true,
      created_date_time: now,
      modified_date_time: now,
    }));
    await t.app.db.batchInsert('subscriptions', rows, 400);
    subscriptionIds = (await t.app.db('subscriptions').where({ event_filter_id: 3021 }).orderBy('id').pluck('id')).map(Number);
    expect(subscriptionIds).toHaveLength(FAN_OUT);
  });
  afterAll(() => t.close());

  const deliveredTo = async (eventId: number) =>
    (await t.app.db('webhook_deliveries').where({ event_id: eventId }).orderBy('subscription_id').pluck('subscription_id')).map(Number);

  it(`writes a delivery for each of ${FAN_OUT} subscriptions of one emitted event`, async () => {
    const occurredAt = new Date().toISOString();
    const eventId = await t.app.db.transaction((trx) =>
      emitEvent(trx, { event: 'timesheet', eventType: 'created', companyId: 1, recordId: 900001, occurredAt }),
    );
    expect(eventId).not.toBeNull();
    expect(await deliveredTo(eventId!)).toEqual(subscriptionIds);
    const webhookIds = await t.app.db('webhook_deliveries').where({ event_id: eventId! }).pluck('webhook_id');
    expect(new Set(webhookIds).size).toBe(FAN_OUT);
  });

  it('writes them for events of a data change and of an import', async () => {
    const [timesheet] = (await t.app.db('timesheets').orderBy('timesheet_id').limit(1).pluck('timesheet_id')).map(Number);
    const before = Number((await t.app.db('webhook_events').max('id as id'))[0]?.id ?? 0);
    await t.app.db.transaction((trx) => emitDataEvents(trx, { timesheets: [{ id: timesheet!, change: 'created' }] }));
    await t.app.db.transaction((trx) =>
      emitImportEvents(trx, {
        timesheets: [{ timesheetId: timesheet!, outcome: 'inserted', statusBefore: null, statusAfter: 'Pending', becameApproved: false }],
        licenses: [],
      }),
    );
    const events = (await t.app.db('webhook_events').where('id', '>', before).orderBy('id').pluck('id')).map(Number);
    expect(events).toHaveLength(2);
    for (const eventId of events) expect(await deliveredTo(eventId)).toEqual(subscriptionIds);
  });
});
