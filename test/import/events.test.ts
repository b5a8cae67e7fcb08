import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importData, type ImportChanges } from '../../src/import/import-data.js';
import { emitImportEvents } from '../../src/import/events.js';
import { emitDataEvents, type RecordChange } from '../../src/webhooks/outbox.js';
import type { Db } from '../../src/shared/db/knex.js';
import { fullFile, tempDatabase, type TempDatabase } from './support.js';

/**
 * The import writes license events its own way on SQLite (a few thousand per statement, owners
 * joined in SQL); whatever the backend, the rows must be exactly those the outbox's
 * emitDataEvents writes for the same changes.
 */

let a: TempDatabase;
let b: TempDatabase;
beforeEach(async () => {
  [a, b] = await Promise.all([tempDatabase(), tempDatabase()]);
});
afterEach(async () => {
  await Promise.all([a.close(), b.close()]);
});

const NOW = new Date('2026-05-01T10:00:00.000Z');

function file(extraLicenses: number) {
  const f = fullFile();
  for (let i = 0; i < extraLicenses; i++) {
    f.licenses.push({ securityLicenseId: 60_000 + i, employeeId: i % 3 === 0 ? 2001 : 1001 } as (typeof f.licenses)[number]);
  }
  const [acme, other] = f.subscribers;
  return {
    ...f,
    subscribers: [
      { ...acme!, eventFilters: [...acme!.eventFilters, { id: 3013, event: 'license', eventType: 'created' }, { id: 3014, event: 'license', eventType: 'updated' }] },
      { ...other!, eventFilters: [{ id: 4011, event: 'license', eventType: 'created' }] },
    ],
  };
}

/** Subscriptions (in the same order in both databases, so with the same ids), some inactive or deleted. */
async function subscribe(db: Db, filters: [subscriber: number, filter: number, active: boolean, deleted: boolean][]) {
  for (const [subscriber, filter, active, deleted] of filters) {
    await db('subscriptions').insert({
      subscriber_id: subscriber,
      event_filter_id: filter,
      uri: `https://hooks.example.com/${subscriber}/${filter}`,
      is_active: active,
      created_date_time: NOW.toISOString(),
      modified_date_time: NOW.toISOString(),
      deleted_at: deleted ? NOW.toISOString() : null,
    });
  }
}

async function written(db: Db) {
  const events = await db('webhook_events').orderBy('id').select('id', 'event', 'event_type', 'company_id', 'record_id', 'occurred_at', 'dedupe_key', 'payload');
  const deliveries = (await db('webhook_deliveries').orderBy('id')) as Record<string, unknown>[];
  for (const delivery of deliveries) {
    expect(delivery.webhook_id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
    delete delivery.webhook_id;
  }
  return { events: events.map((row) => ({ ...row, company_id: Number(row.company_id), record_id: Number(row.record_id) })), deliveries };
}

const license = (id: number, outcome: 'inserted' | 'updated' | 'unchanged') => ({ securityLicenseId: id, outcome });
const asChange = (outcome: string): RecordChange['change'] => (outcome === 'inserted' ? 'created' : outcome === 'updated' ? 'changed' : 'unchanged');

/** Emits the same changes through the outbox into `a` and through the import's hook into `b`. */
async function emitBoth(changes: ImportChanges) {
  await a.db.transaction((trx) =>
    emitDataEvents(
      trx,
      {
        timesheets: changes.timesheets.map((c) => ({ id: c.timesheetId, change: asChange(c.outcome), becameApproved: c.becameApproved })),
        licenses: changes.licenses.map((c) => ({ id: c.securityLicenseId, change: asChange(c.outcome) })),
      },
      NOW,
    ),
  );
  await b.db.transaction((trx) => emitImportEvents(trx, changes, NOW));
  return { outbox: await written(a.db), imported: await written(b.db) };
}

describe("the import's events", () => {
  it('are the rows emitDataEvents writes: same events in the same order, same deliveries', async () => {
    for (const t of [a, b]) {
      await importData(t.db, file(20));
      await subscribe(t.db, [
        [301, 3013, true, false],
        [301, 3013, true, false],
        [301, 3014, true, false],
        [401, 4011, true, false],
        [401, 4011, false, false],
        [301, 3013, true, true],
        [301, 3011, true, false],
      ]);
    }
    const licenses = [
      license(50001, 'updated'),
      license(50002, 'inserted'),
      license(60_004, 'unchanged'),
      // No such license: no owner, so no event.
      license(70_000, 'inserted'),
      ...Array.from({ length: 20 }, (_, i) => license(60_000 + i, i % 4 === 0 ? 'updated' : i % 5 === 0 ? 'unchanged' : 'inserted')),
    ];
    const changes: ImportChanges = {
      timesheets: [
        { timesheetId: 9001, outcome: 'updated', statusBefore: 'Pending', statusAfter: 'Approved', becameApproved: true },
        { timesheetId: 9002, outcome: 'unchanged', statusBefore: 'APPROVED', statusAfter: 'APPROVED', becameApproved: false },
      ],
      licenses,
    };

    const { outbox, imported } = await emitBoth(changes);
    expect(imported).toEqual(outbox);
    expect(outbox.events.filter((e) => e.event === 'license')).toHaveLength(19);
    expect(outbox.deliveries.length).toBeGreaterThan(20);
  });

  it('are the same when no subscription listens, and across several statements', async () => {
    for (const t of [a, b]) await importData(t.db, file(12_000));
    const licenses = Array.from({ length: 12_000 }, (_, i) => license(60_000 + i, i % 7 === 0 ? 'updated' : i % 9 === 0 ? 'unchanged' : 'inserted'));

    const { outbox, imported } = await emitBoth({ timesheets: [], licenses });
    expect(imported).toEqual(outbox);
    expect(outbox.events).toHaveLength(12_000 - Math.floor(12_000 / 9) + Math.floor(12_000 / 63));
    expect(outbox.deliveries).toEqual([]);
  });

  it('are none for no changes', async () => {
    for (const t of [a, b]) await importData(t.db, file(0));
    const { outbox, imported } = await emitBoth({ timesheets: [], licenses: [license(50001, 'unchanged')] });
    expect(imported).toEqual(outbox);
    expect(outbox.events).toEqual([]);
  });
});
