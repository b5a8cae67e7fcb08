import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { onPostgres } from '../support/backend.js';
import type { TestApp } from '../support/test-app.js';
import { scanLicensesOnce } from '../../src/webhooks/license-events.js';
import { LicenseScheduler } from '../../src/workers/webhook-workers.js';
import { startWebhookApp, subscribe, waitFor } from './support.js';

const DAY = 24 * 3600 * 1000;
// Seeded licenses expire 2027-06-30 with a 30-day reminder: company 1 has 46, company 2 has 70001.
const REMINDER_TIME = new Date(Date.parse('2027-06-30T00:00:00.000Z') - 29 * DAY);

describe('license scan with one company failing', () => {
  let t: TestApp;
  let companyOne: number;
  let companyTwo: number;
  let errors: MockInstance<typeof console.error>;
  beforeAll(async () => {
    t = await startWebhookApp();
    await t.app.webhooks.scheduler.stop();
    await t.app.webhooks.dispatcher.stop();
    await t.app.db('event_filters').insert({ id: 4012, subscriber_id: 401, event: 'license', event_type: 'expiring' });
    const pair = { uri: 'https://hooks.example.com/licenses', event: 'license', eventType: 'expiring' };
    companyOne = await subscribe(t, await t.token({ type: 'developer', companyId: 1 }), { subscriberId: 302, ...pair });
    companyTwo = await subscribe(t, await t.token({ type: 'developer', companyId: 2 }), { subscriberId: 401, ...pair });
  });
  afterEach(() => errors?.mockRestore());
  afterAll(() => t.close());

  // A fault in the database itself: every delivery to company 1's subscription is refused.
  async function failDeliveriesTo(subscriptionId: number): Promise<void> {
    if (onPostgres()) {
      await t.app.db.raw(`CREATE FUNCTION refuse_delivery() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$ LANGUAGE plpgsql`);
      await t.app.db.raw(
        `CREATE TRIGGER refuse_delivery BEFORE INSERT ON webhook_deliveries FOR EACH ROW WHEN (NEW.subscription_id = ${subscriptionId}) EXECUTE FUNCTION refuse_delivery()`,
      );
    } else {
      await t.app.db.raw(
        `CREATE TRIGGER refuse_delivery BEFORE INSERT ON webhook_deliveries WHEN NEW.subscription_id = ${subscriptionId} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
      );
    }
  }
  async function healDeliveries(): Promise<void> {
    await t.app.db.raw(onPostgres() ? 'DROP TRIGGER refuse_delivery ON webhook_deliveries' : 'DROP TRIGGER refuse_delivery');
    if (onPostgres()) await t.app.db.raw('DROP FUNCTION refuse_delivery()');
  }

  const licenseEventsOf = async (companyId: number) =>
    (await t.app.db('webhook_events').where({ event: 'license', company_id: companyId }).pluck('record_id')).map(Number).sort((a, b) => a - b);
  const deliveryCount = async (subscriptionId: number) => (await t.app.db('webhook_deliveries').where({ subscription_id: subscriptionId })).length;

  it("emits the other company's events, logs the failure without SQL or values, and catches up once the fault is gone", async () => {
    await failDeliveriesTo(companyOne);
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const scheduler = new LicenseScheduler(t.app.db, 3600, () => REMINDER_TIME.getTime());
    scheduler.start();
    await waitFor(() => errors.mock.calls.length > 0, 'the failed scan to be logged');
    await scheduler.stop();

    expect(await licenseEventsOf(2)).toEqual([70001]);
    expect(await deliveryCount(companyTwo)).toBe(1);
    expect(await licenseEventsOf(1)).toEqual([]);
    expect(await deliveryCount(companyOne)).toBe(0);
    // Company 1's keys went back with its events, so the next round tries them again.
    expect(await t.app.db('webhook_event_keys').pluck('dedupe_key')).toEqual([`license:70001:expiring:2027-06-30T00:00:00.000Z`]);

    const line = errors.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
    expect(line).toContain('license scheduler');
    expect(line).toContain('injected fault');
    expect(line).toMatch(/insert into webhook_deliveries/);
    expect(line.toLowerCase()).not.toContain('values');
    expect(line.toLowerCase()).not.toContain('select');
    expect(line).not.toContain('msg_');
    expect(line).not.toContain(REMINDER_TIME.toISOString());
    expect(line.length).toBeLessThan(500);

    await healDeliveries();
    expect(await scanLicensesOnce(t.app.db, REMINDER_TIME)).toBe(46);
    expect(await licenseEventsOf(1)).toHaveLength(46);
    expect(await deliveryCount(companyOne)).toBe(46);
    expect(await deliveryCount(companyTwo)).toBe(1);
  });
});
