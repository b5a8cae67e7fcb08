import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/shared/db/knex.js';
import { migrationSource } from '../../src/shared/db/migrations/index.js';
import { scanLicenses } from '../../src/webhooks/license-events.js';
import { emitEvent } from '../../src/webhooks/outbox.js';
import { pruneWebhookHistory } from '../../src/repositories/webhook-history.js';
import { RetentionWorker } from '../../src/workers/webhook-workers.js';
import { createTestDatabase } from '../support/backend.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { FAST_WEBHOOKS, subscribe, waitFor } from './support.js';

const DAY = 24 * 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('webhook history retention', () => {
  let t: TestApp;
  // The app's clock: every background worker reads it. It starts before any seeded license is
  // due, so the scan at start-up emits nothing.
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  let nextRecord = 700_000;

  beforeAll(async () => {
    t = await startTestApp({ env: FAST_WEBHOOKS, now: () => clock });
    // The test moves deliveries through their states itself, and runs the pruner when it says so.
    await t.app.webhooks.dispatcher.stop();
    await t.app.webhooks.scheduler.stop();
    await t.app.webhooks.retention.stop();
    expect(await db()('webhook_events').count({ n: '*' })).toEqual([{ n: 0 }]);
    clock = Date.parse('2031-01-01T00:00:00.000Z');
    const token = await t.token({ type: 'developer', companyId: 1 });
    await subscribe(t, token, { subscriberId: 302, uri: 'https://hooks.example.com/created', event: 'timesheet', eventType: 'created' });
    await subscribe(t, token, { subscriberId: 302, uri: 'https://hooks.example.com/expiring', event: 'license', eventType: 'expiring' });
  });
  afterAll(() => t.close());

  const db = () => t.app.db;

  /** A timesheet event (created: one delivery to the subscription above; updated: none) that happened `ageDays` ago. */
  async function event(ageDays: number, eventType: 'created' | 'updated' = 'created'): Promise<{ eventId: number; deliveryId: number | null }> {
    const eventId = (await db().transaction((trx) =>
      emitEvent(trx, { event: 'timesheet', eventType, companyId: 1, recordId: nextRecord++, occurredAt: iso(clock - ageDays * DAY) }),
    ))!;
    const delivery = (await db()('webhook_deliveries').where({ event_id: eventId }).first('id')) as { id: number } | undefined;
    return { eventId, deliveryId: delivery ? Number(delivery.id) : null };
  }

  /** Moves a delivery to `state`, finished `ageDays` ago, after `attempts` attempts. */
  async function finish(deliveryId: number, state: 'delivered' | 'failed' | 'cancelled' | 'pending', ageDays: number, attempts: number) {
    const at = iso(clock - ageDays * DAY);
    await db()('webhook_deliveries')
      .where({ id: deliveryId })
      .update({ state, attempt_count: attempts, completed_at: state === 'pending' ? null : at, next_attempt_at: state === 'pending' ? iso(clock + DAY) : null });
    for (let i = 0; i < attempts; i++) {
      await db()('webhook_attempts').insert({ delivery_id: deliveryId, attempted_at: at, http_status: state === 'delivered' && i === attempts - 1 ? 200 : 500, duration_ms: 5, error: null });
    }
  }

  const exists = async (table: string, id: number | null) => id !== null && (await db()(table).where({ id }).first()) !== undefined;
  const attemptsOf = async (deliveryId: number | null) => Number((await db()('webhook_attempts').where({ delivery_id: deliveryId }).count({ n: '*' }))[0]!.n);

  it('prunes finished deliveries, their attempts and spent events after WEBHOOK_RETENTION_DAYS, and nothing else', async () => {
    expect(t.app.config.webhooks.retentionDays).toBe(30);
    const delivered = await event(40);
    await finish(delivered.deliveryId!, 'delivered', 31, 2);
    const failed = await event(40);
    await finish(failed.deliveryId!, 'failed', 31, 4);
    const recent = await event(40);
    await finish(recent.deliveryId!, 'delivered', 29, 1);
    const pending = await event(60);
    await finish(pending.deliveryId!, 'pending', 0, 3);
    const unsent = await event(31, 'updated');
    const fresh = await event(1, 'updated');
    expect(unsent.deliveryId).toBeNull();

    const result = await t.app.webhooks.retention.runOnce();
    expect(result).toMatchObject({ deliveries: 2, attempts: 6, events: 3 });
    expect(await exists('webhook_deliveries', delivered.deliveryId)).toBe(false);
    expect(await attemptsOf(delivered.deliveryId)).toBe(0);
    expect(await exists('webhook_events', delivered.eventId)).toBe(false);
    expect(await exists('webhook_deliveries', failed.deliveryId)).toBe(false);
    expect(await attemptsOf(failed.deliveryId)).toBe(0);
    expect(await exists('webhook_events', unsent.eventId)).toBe(false);
    // Finished 29 days ago: kept, and its event with it.
    expect(await exists('webhook_deliveries', recent.deliveryId)).toBe(true);
    expect(await attemptsOf(recent.deliveryId)).toBe(1);
    expect(await exists('webhook_events', recent.eventId)).toBe(true);
    // Pending is never pruned, however old its event.
    expect(await exists('webhook_deliveries', pending.deliveryId)).toBe(true);
    expect(await attemptsOf(pending.deliveryId)).toBe(3);
    expect(await exists('webhook_events', pending.eventId)).toBe(true);
    expect(await exists('webhook_events', fresh.eventId)).toBe(true);

    // Two days later the 29-day-old delivery has passed the limit too.
    clock += 2 * DAY;
    expect(await t.app.webhooks.retention.runOnce()).toMatchObject({ deliveries: 1, attempts: 1, events: 1 });
    expect(await exists('webhook_events', recent.eventId)).toBe(false);
    expect(await exists('webhook_deliveries', pending.deliveryId)).toBe(true);
  });

  it('prunes cancelled deliveries like failed ones', async () => {
    const cancelled = await event(40);
    await finish(cancelled.deliveryId!, 'cancelled', 31, 0);
    const recent = await event(40);
    await finish(recent.deliveryId!, 'cancelled', 29, 0);
    await t.app.webhooks.retention.runOnce();
    expect(await exists('webhook_deliveries', cancelled.deliveryId)).toBe(false);
    expect(await exists('webhook_events', cancelled.eventId)).toBe(false);
    expect(await exists('webhook_deliveries', recent.deliveryId)).toBe(true);
  });

  it('works in small batches, each its own statement, yielding to the event loop between them', async () => {
    const count = 1100;
    const base = nextRecord;
    nextRecord += count;
    const occurredAt = iso(clock - 50 * DAY);
    const eventIds: number[] = [];
    for (let i = 0; i < count; i += 250) {
      const rows = Array.from({ length: Math.min(250, count - i) }, (_, j) => ({ event: 'timesheet', event_type: 'created', company_id: 1, record_id: base + i + j, occurred_at: occurredAt }));
      const inserted = (await db()('webhook_events').insert(rows).returning('id')) as ({ id: number } | number)[];
      eventIds.push(...inserted.map((r) => Number(typeof r === 'object' ? r.id : r)));
    }
    const subscription = (await db()('subscriptions').first('id')) as { id: number };
    await db().batchInsert(
      'webhook_deliveries',
      eventIds.map((eventId, i) => ({
        event_id: eventId,
        subscription_id: subscription.id,
        webhook_id: `msg_bulk_${base + i}`,
        state: 'delivered',
        attempt_count: 1,
        created_at: occurredAt,
        completed_at: occurredAt,
      })),
      250,
    );

    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const { result, statements } = await t.countStatements(() => pruneWebhookHistory(db(), new Date(clock), 30, { batchSize: 200 }));
    clearInterval(ticker);
    expect(result).toMatchObject({ deliveries: count, events: count });
    const deliveryDeletes = statements.filter((s) => /^delete from [`"]webhook_deliveries[`"]/i.test(s));
    const eventDeletes = statements.filter((s) => /^delete from [`"]webhook_events[`"]/i.test(s));
    expect(deliveryDeletes.length).toBeGreaterThanOrEqual(Math.ceil(count / 200));
    expect(eventDeletes.length).toBeGreaterThanOrEqual(Math.ceil(count / 200));
    expect(ticks, 'timers ran while the pruner worked').toBeGreaterThan(0);
    expect(Number((await db()('webhook_events').whereBetween('record_id', [base, base + count - 1]).count({ n: '*' }))[0]!.n)).toBe(0);
  });

  it('never lets a pruned license event be emitted again', async () => {
    // License 50001 (company 1) expires 2027-06-30 with a 30-day reminder; the clock is past both.
    const eventsOf = () => db()('webhook_events').where({ event: 'license', record_id: 50001 }).pluck('event_type');
    const scanAt = new Date(clock);
    expect(await scanLicenses(db(), scanAt)).toBeGreaterThan(0);
    expect((await eventsOf()).sort()).toEqual(['expired', 'expiring']);
    // The expiring event went to the subscription above and was delivered; expired went nowhere.
    const deliveries = await db()('webhook_deliveries as d').join('webhook_events as e', 'e.id', 'd.event_id').where('e.event', 'license').select('d.id');
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) await finish(Number(d.id), 'delivered', 0, 1);

    clock += 31 * DAY;
    const result = await t.app.webhooks.retention.runOnce();
    expect(result.events).toBeGreaterThan(0);
    expect(await eventsOf()).toEqual([]);
    expect(await scanLicenses(db(), new Date(clock))).toBe(0);
    expect(await eventsOf()).toEqual([]);
  });

  it('keeps the once-only key of a license event written without one (an older instance) when pruning it', async () => {
    const key = 'license:60001:expired:2027-12-31T00:00:00.000Z';
    const withKey = () => db()('webhook_events').where({ dedupe_key: key }).count({ n: '*' });
    await db()('webhook_events').insert({ event: 'license', event_type: 'expired', company_id: 1, record_id: 60001, occurred_at: iso(clock - 40 * DAY), dedupe_key: key });
    await db()('licenses').where({ security_license_id: 60001 }).update({ expiry_date: '2027-12-31T00:00:00.000Z', reminder: null });
    await t.app.webhooks.retention.runOnce();
    expect(await withKey()).toEqual([{ n: 0 }]);
    await scanLicenses(db(), new Date(clock));
    expect(await withKey()).toEqual([{ n: 0 }]);
  });

  it('keeps everything with WEBHOOK_RETENTION_DAYS=0', async () => {
    const old = await event(400);
    await finish(old.deliveryId!, 'delivered', 365, 1);
    const keepAll = new RetentionWorker(db(), 0, () => clock);
    keepAll.start();
    expect(await keepAll.runOnce()).toEqual({ deliveries: 0, attempts: 0, events: 0 });
    await keepAll.stop();
    expect(await exists('webhook_deliveries', old.deliveryId)).toBe(true);
  });

  it('runs in the background on the app’s clock once started', async () => {
    const old = await event(45);
    await finish(old.deliveryId!, 'delivered', 35, 1);
    t.app.webhooks.retention.start();
    try {
      await waitFor(async () => !(await exists('webhook_events', old.eventId)), 'the background pruner');
    } finally {
      await t.app.webhooks.retention.stop();
    }
    expect(await exists('webhook_deliveries', old.deliveryId)).toBe(false);
  });
});

describe('the retention migration', () => {
  it('copies the once-only keys of existing events into webhook_event_keys', async () => {
    const database = await createTestDatabase();
    const db = openDatabase(loadConfig(database.env));
    try {
      const names = await migrationSource.getMigrations([]);
      const before = names.indexOf('005_delivery_retention');
      for (let i = 0; i < before; i++) await db.migrate.up({ migrationSource });
      await db('companies').insert({ id: 1, name: 'Acme' });
      await db('webhook_events').insert([
        { event: 'license', event_type: 'expired', company_id: 1, record_id: 5, occurred_at: '2027-07-01T00:00:00.000Z', dedupe_key: 'license:5:expired:2027-06-30T00:00:00.000Z' },
        { event: 'timesheet', event_type: 'created', company_id: 1, record_id: 6, occurred_at: '2027-07-01T00:00:00.000Z' },
      ]);
      await db.migrate.up({ migrationSource });
      expect(await db('webhook_event_keys').pluck('dedupe_key')).toEqual(['license:5:expired:2027-06-30T00:00:00.000Z']);
    } finally {
      await db.destroy();
      await database.close();
    }
  });
});
