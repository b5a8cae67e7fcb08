import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase, type Db } from '../../src/shared/db/knex.js';
import { eventTailFor, IdTail, SnapshotTail, type EventTail } from '../../src/repositories/webhook-event-tail.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/backend.js';
import { seedTenants } from '../support/seed.js';

function event(db: Db, recordId: number) {
  return db('webhook_events').insert({
    event: 'timesheet',
    event_type: 'updated',
    company_id: 1,
    record_id: recordId,
    occurred_at: new Date().toISOString(),
  });
}

const recordsOf = async (tail: EventTail, limit = 100) => (await tail.read(limit)).map((row) => row.record_id);

/**
 * Reads until `count` records have come (or 10 s pass) and returns them in order. The PostgreSQL
 * tail's floor is the server's oldest open transaction, and other test files share the server:
 * one of their transactions may hold rows back for a moment, never reorder or drop them.
 */
async function recordsUntil(tail: EventTail, count: number): Promise<number[]> {
  const seen: number[] = [];
  const deadline = Date.now() + 10_000;
  while (seen.length < count && Date.now() < deadline) {
    seen.push(...(await recordsOf(tail)));
    if (seen.length < count) await new Promise((done) => setTimeout(done, 50));
  }
  return seen;
}

describe('the events-table tail', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase({ ...loadConfig(database.env), poolMin: 0, poolMax: 4 });
    await migrateLatest(db);
    await seedTenants(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.close();
  });

  it('starts from now, returns each committed row once, in id order, and in batches', async () => {
    const tail = eventTailFor(db);
    expect(tail).toBeInstanceOf(onPostgres() ? SnapshotTail : IdTail);
    await event(db, 1);
    await tail.skipToNow();
    expect(await recordsOf(tail)).toEqual([]);
    for (const record of [2, 3, 4, 5, 6]) await event(db, record);
    expect(await recordsOf(tail, 2)).toEqual([2, 3]);
    expect(await recordsOf(tail, 2)).toEqual([4, 5]);
    expect(await recordsOf(tail, 2)).toEqual([6]);
    expect(await recordsOf(tail)).toEqual([]);
  });

  it.skipIf(!onPostgres())('neither skips nor repeats a transaction that commits after later ids, nor one rolled back', async () => {
    const tail = eventTailFor(db);
    await tail.skipToNow();
    const slow = await db.transaction();
    const aborted = await db.transaction();
    try {
      await event(slow, 10);
      await event(aborted, 11);
      await event(db, 12);
      expect(await recordsOf(tail)).toEqual([12]);
      await aborted.rollback();
      await event(db, 13);
      expect(await recordsOf(tail)).toEqual([13]);
      await slow.commit();
      expect(await recordsOf(tail)).toEqual([10]);
      expect(await recordsOf(tail)).toEqual([]);
    } finally {
      if (!slow.isCompleted()) await slow.rollback();
      if (!aborted.isCompleted()) await aborted.rollback();
    }
  });

  it.skipIf(!onPostgres())('past its bound on tracked transactions, holds new ones back until the oldest open one ends', async () => {
    const tail = new SnapshotTail(db, 3);
    await tail.skipToNow();
    const long = await db.transaction();
    try {
      await long.raw('select pg_current_xact_id()');
      for (const record of [20, 21, 22, 23]) await event(db, record);
      expect(await recordsUntil(tail, 4)).toEqual([20, 21, 22, 23]);
      await event(db, 24);
      expect(await recordsOf(tail), 'held back while the long transaction keeps the floor down').toEqual([]);
      await long.commit();
      expect(await recordsUntil(tail, 1)).toEqual([24]);
      await event(db, 25);
      expect(await recordsUntil(tail, 1)).toEqual([25]);
    } finally {
      if (!long.isCompleted()) await long.rollback();
    }
  });
});
