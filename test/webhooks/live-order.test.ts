import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/shared/db/knex.js';
import { onPostgres } from '../support/backend.js';
import { openEventStream, type EventStream } from '../support/event-stream.js';
import type { TestApp } from '../support/test-app.js';
import { startWebhookApp, waitFor } from './support.js';

const QUERY = 'subscription { events(event: "timesheet", eventType: "updated") { data } }';
const RECORDS = 24;
const COUNTERS = 'live_order_counters';

interface Received {
  record: number;
  n: number;
}

/**
 * Writes one event for `record` inside `trx` the way a real write does: the record's row is
 * updated first (here a counter, which takes the row lock and numbers the record's events), then
 * the event row goes in with its body already rendered, carrying that number.
 */
async function writeEvent(trx: Knex.Transaction, record: number): Promise<void> {
  const [row] = (await trx(COUNTERS).where({ record }).increment('n', 1).returning('n')) as ({ n: number } | number)[];
  const n = Number(typeof row === 'object' ? row.n : row);
  const occurredAt = new Date().toISOString();
  await trx('webhook_events').insert({
    event: 'timesheet',
    event_type: 'updated',
    company_id: 1,
    record_id: record,
    occurred_at: occurredAt,
    payload: JSON.stringify({ type: 'timesheet.updated', timestamp: occurredAt, data: { record, n } }),
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('live events reach a stream exactly once and in order per record', () => {
  let t: TestApp;
  /** The writers' own database handle: on PostgreSQL a pool of several connections. */
  let writers: Db;
  let stream: EventStream;
  const received = () => stream.messages.map((m) => m.data.events.data as Received);

  beforeAll(async () => {
    t = await startWebhookApp();
    // Only the relay is under test; the dispatcher's and the scheduler's writes would just compete for SQLite's lock.
    await t.app.webhooks.dispatcher.stop();
    await t.app.webhooks.scheduler.stop();
    writers = onPostgres() ? openDatabase({ ...loadConfig(t.database.env), poolMin: 0, poolMax: 6 }) : t.app.db;
    await t.app.db.schema.createTable(COUNTERS, (table) => {
      table.integer('record').primary();
      table.integer('n').notNullable();
    });
    await t.app.db(COUNTERS).insert(Array.from({ length: RECORDS + 2 }, (_, record) => ({ record, n: 0 })));
    const token = await t.token({ type: 'developer', companyId: 1 });
    stream = await openEventStream(t.baseUrl, token, QUERY);
    await waitFor(() => t.app.services.webhooks?.bus.listening, 'the stream to listen');
  });
  afterAll(async () => {
    stream?.close();
    if (writers && writers !== t?.app.db) await writers.destroy();
    await t?.close();
  });

  it.skipIf(!onPostgres())('delivers an event whose transaction commits after one with a higher id', async () => {
    const early = await writers.transaction();
    const late = await writers.transaction();
    try {
      await writeEvent(early, RECORDS); // the lower id …
      await writeEvent(late, RECORDS + 1); // … and the higher one, committed first
      await late.commit();
      await waitFor(() => received().some((r) => r.record === RECORDS + 1), 'the first committed event');
      await early.commit();
    } finally {
      if (!early.isCompleted()) await early.rollback();
      if (!late.isCompleted()) await late.rollback();
    }
    await waitFor(() => received().some((r) => r.record === RECORDS), 'the event committed second, with the lower id');
  });

  it('every committed event of interleaved concurrent writers arrives once, each record’s in commit order', async () => {
    const next = random(20_260_210);
    const writerCount = onPostgres() ? 6 : 3;
    const transactionsPerWriter = 40;
    let committedEvents = 0;
    const before = received().length;
    await Promise.all(
      Array.from({ length: writerCount }, async () => {
        for (let i = 0; i < transactionsPerWriter; i++) {
          // Records in ascending order in every transaction, so writers queue on a row lock but never deadlock.
          const records = Array.from({ length: 1 + Math.floor(next() * 20) }, () => Math.floor(next() * RECORDS)).sort((x, y) => x - y);
          const abort = next() < 0.1;
          const waits = records.map(() => (next() < 0.3 ? Math.floor(next() * 4) : -1));
          const commitWait = Math.floor(next() * 6);
          try {
            await writers.transaction(async (trx) => {
              for (const [k, record] of records.entries()) {
                await writeEvent(trx, record);
                if (waits[k]! >= 0) await pause(waits[k]!);
              }
              await pause(commitWait);
              if (abort) throw new Error('rolled back on purpose');
            });
            committedEvents += records.length;
          } catch (error) {
            if (!abort) throw error;
          }
        }
      }),
    );
    const finalCounts = new Map(
      ((await t.app.db(COUNTERS).where('record', '<', RECORDS).select('record', 'n')) as { record: number; n: number }[]).map((row) => [
        Number(row.record),
        Number(row.n),
      ]),
    );
    const total = [...finalCounts.values()].reduce((x, y) => x + y, 0);
    expect(total).toBe(committedEvents);
    await waitFor(() => received().length - before >= total, `all ${total} committed events on the stream (${received().length - before} so far)`, 30_000);
    // Give a duplicate the chance to arrive, then check.
    await pause(300);
    const got = received().slice(before);
    expect(got.length).toBe(total);
    for (const [record, count] of finalCounts) {
      const numbers = got.filter((r) => r.record === record).map((r) => r.n);
      expect(numbers, `record ${record}`).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    }
  }, 120_000);
});
