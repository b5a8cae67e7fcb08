import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanLicenses } from '../../src/webhooks/license-events.js';
import type { TestApp } from '../support/test-app.js';
import { startWebhookApp, subscribe } from './support.js';

const DAY = 24 * 3600 * 1000;

describe('license expiry scheduler', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startWebhookApp();
    await t.app.webhooks.scheduler.stop();
    await t.app.webhooks.dispatcher.stop();
  });
  afterAll(() => t.close());

  const eventsOf = (licenseId: number) =>
    t.app.db('webhook_events').where({ record_id: licenseId, event: 'license' }).orderBy('id').pluck('event_type');

  it('emits expiring once reminder days before expiry and expired once at expiry, even when scans overlap', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(t, token, {
      subscriberId: 302,
      uri: 'https://hooks.example.com/licenses',
      event: 'license',
      eventType: 'expiring',
    });
    // License 50001 (company 1) expires 2027-06-30 with a 30-day reminder.
    const expiry = Date.parse('2027-06-30T00:00:00.000Z');
    await scanLicenses(t.app.db, new Date(expiry - 31 * DAY));
    expect(await eventsOf(50001)).toEqual([]);

    const reminderTime = new Date(expiry - 30 * DAY);
    await Promise.all([scanLicenses(t.app.db, reminderTime), scanLicenses(t.app.db, reminderTime), scanLicenses(t.app.db, reminderTime)]);
    await scanLicenses(t.app.db, new Date(expiry - DAY));
    expect(await eventsOf(50001)).toEqual(['expiring']);

    await Promise.all([scanLicenses(t.app.db, new Date(expiry)), scanLicenses(t.app.db, new Date(expiry + DAY))]);
    await scanLicenses(t.app.db, new Date(expiry + 2 * DAY));
    expect(await eventsOf(50001)).toEqual(['expiring', 'expired']);

    // Only the subscription to license/expiring of company 1 got deliveries: one per company-1 license.
    const deliveries = await t.app.db('webhook_deliveries as d')
      .join('webhook_events as e', 'e.id', 'd.event_id')
      .where('d.subscription_id', subscriptionId)
      .select('e.event_type', 'e.company_id', 'e.record_id');
    expect(new Set(deliveries.map((d) => d.event_type))).toEqual(new Set(['expiring']));
    expect(new Set(deliveries.map((d) => d.company_id))).toEqual(new Set([1]));
    expect(deliveries.filter((d) => d.record_id === 50001)).toHaveLength(1);
  });

  it('treats a renewed expiry date as a new expiry', async () => {
    // The first test already took license 60001 through its 2027 expiry.
    const earlier = (await eventsOf(60001)).length;
    const since = async () => (await eventsOf(60001)).slice(earlier);
    await t.app.db('licenses').where({ security_license_id: 60001 }).update({ expiry_date: '2020-01-01T00:00:00.000Z' });
    await scanLicenses(t.app.db, new Date('2020-06-01T00:00:00.000Z'));
    expect(await since()).toEqual(['expiring', 'expired']);
    await t.app.db('licenses').where({ security_license_id: 60001 }).update({ expiry_date: '2021-01-01T00:00:00.000Z' });
    await scanLicenses(t.app.db, new Date('2021-06-01T00:00:00.000Z'));
    await scanLicenses(t.app.db, new Date('2021-06-02T00:00:00.000Z'));
    expect(await since()).toEqual(['expiring', 'expired', 'expiring', 'expired']);
  });
  it('walks a large table in chunks, yielding between them, and still emits each event once', async () => {
    const rows = [];
    for (let i = 0; i < 2500; i++) {
      rows.push({ security_license_id: 800000 + i, employee_id: 1002, license_number: `BULK-${i}`, expiry_date: '2019-01-01T00:00:00.000Z', reminder: null });
    }
    await t.app.db.batchInsert('licenses', rows, 200);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const written = await scanLicenses(t.app.db, new Date('2019-02-01T00:00:00.000Z'));
    clearInterval(ticker);
    const bulkEvents = await t.app.db('webhook_events')
      .where('event', 'license')
      .whereBetween('record_id', [800000, 802499])
      .select('record_id', 'event_type');
    expect(bulkEvents).toHaveLength(2500);
    expect(new Set(bulkEvents.map((e) => e.event_type))).toEqual(new Set(['expired']));
    expect(written).toBeGreaterThanOrEqual(2500);
    // Timers ran while the scan was in progress: the event loop was not held for the whole walk.
    expect(ticks).toBeGreaterThan(0);
    expect(await scanLicenses(t.app.db, new Date('2019-02-01T00:00:00.000Z'))).toBe(0);
  });
});
