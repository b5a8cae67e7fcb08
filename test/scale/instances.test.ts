import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase } from '../../src/shared/db/knex.js';
import { migrationSource } from '../../src/shared/db/migrations/index.js';
import { Dispatcher } from '../../src/workers/dispatcher.js';
import { scanLicensesOnce } from '../../src/webhooks/license-events.js';
import { PayloadRenderer } from '../../src/workers/payload-renderer.js';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/backend.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { FAST_WEBHOOKS, importTimesheets, subscribe, waitFor } from '../webhooks/support.js';
import { openEventStream } from '../support/event-stream.js';

const BIN = resolve(import.meta.dirname, '../../bin/shiftgate.js');

function runCli(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

// Several shiftgate instances on one PostgreSQL database, in one process (the multi-process
// test is test/scale/multi-process.test.ts). SQLite is one machine by design, so these run on
// the postgres project only and are reported as skipped on the sqlite one.
describe.skipIf(!onPostgres())('several instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Polling every minute: within the test's deadlines only a notification can move events.
    const env = { ...FAST_WEBHOOKS, WEBHOOK_POLL_INTERVAL_MS: '60000', LICENSE_SCAN_INTERVAL_SECONDS: '3600' };
    a = await startTestApp({ env, database });
    b = await startTestApp({ env, database, seed: false });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.close();
  });

  it('claims disjoint deliveries from concurrent dispatchers (FOR UPDATE SKIP LOCKED)', async () => {
    await a.app.webhooks.dispatcher.stop();
    await b.app.webhooks.dispatcher.stop();
    const token = await a.token({ type: 'developer', companyId: 1 });
    await subscribe(a, token, { subscriberId: 302, uri: 'https://hooks.example.com/claims', event: 'timesheet', eventType: 'created' });
    const timesheets = Array.from({ length: 120 }, (_, i) => ({ timesheetId: 20_000 + i, siteId: 100, employeeId: 1001 }));
    await importTimesheets(a.app.db, timesheets);

    const config = a.app.config.webhooks;
    const dispatchers = Array.from({ length: 6 }, (_, i) => {
      const db = i % 2 === 0 ? a.app.db : b.app.db;
      return new Dispatcher({ db, config, guard: new AddressGuard([]), renderer: new PayloadRenderer(db, a.app.execute), owner: `d${i}` });
    });
    const claimed = await Promise.all(dispatchers.map((d) => d.claim(30)));
    const ids = claimed.flat().map((row) => Number(row.id));
    expect(new Set(ids).size, 'no delivery claimed twice').toBe(ids.length);
    expect(ids.length).toBe(120);
    expect(claimed.filter((rows) => rows.length > 0).length, 'the work was shared').toBeGreaterThan(1);

    // The statement really locks and skips on PostgreSQL.
    const { statements } = await a.countStatements(() => dispatchers[0]!.claim(1));
    expect(statements.join('\n')).toMatch(/for update skip locked/i);
    await a.app.db('webhook_deliveries').del();
  });

  it('runs the license scan once across instances (advisory lock) and never duplicates an event', async () => {
    const when = new Date('2030-01-01T00:00:00.000Z'); // every seeded license has expired by then
    const results = await Promise.all([
      scanLicensesOnce(a.app.db, when),
      scanLicensesOnce(b.app.db, when),
      scanLicensesOnce(a.app.db, when),
      scanLicensesOnce(b.app.db, when),
    ]);
    const written = results.filter((n): n is number => n !== null).reduce((x, y) => x + y, 0);
    const licenses = Number((await a.app.db('licenses').count({ n: '*' }))[0]!.n);
    // expiring and expired once per license, whichever instances got to scan.
    expect(written).toBe(2 * licenses);
    const duplicates = await a.app.db('webhook_events')
      .whereNotNull('dedupe_key')
      .groupBy('dedupe_key')
      .havingRaw('count(*) > 1')
      .select('dedupe_key');
    expect(duplicates).toEqual([]);
    expect(await Promise.all([scanLicensesOnce(a.app.db, when), scanLicensesOnce(b.app.db, when)])).not.toContain(1);
  });

  it('delivers live events written through one instance to clients of the other (LISTEN/NOTIFY)', async () => {
    const token = await b.token({ type: 'developer', companyId: 1 });
    const stream = await openEventStream(b.baseUrl, token, 'subscription { events(event: "timesheet", eventType: "created") { type data } }');
    try {
      await waitFor(() => b.app.services.webhooks?.bus.listening, 'the stream on instance b to listen');
      // Let instance b's relay take its starting mark (it does so on the first notification or poll).
      await importTimesheets(a.app.db, [{ timesheetId: 21_000, siteId: 100, employeeId: 1001 }]);
      await importTimesheets(a.app.db, [{ timesheetId: 21_001, siteId: 100, employeeId: 1001 }]);
      const got = await waitFor(
        () => stream.messages.find((m) => m.data?.events?.data?.timesheetId === 21_001),
        'timesheet 21001 on instance b’s stream',
        20_000,
      );
      expect(got.data.events.type).toBe('timesheet.created');
    } finally {
      stream.close();
    }
  });
});

describe.skipIf(!onPostgres())('migrations from several instances at once', () => {
  it('`shiftgate migrate` is idempotent and safe to run concurrently on a fresh database', async () => {
    const database = await createTestDatabase();
    try {
      const [first, second] = await Promise.all([runCli(database.env, 'migrate'), runCli(database.env, 'migrate')]);
      expect(first.code, first.stderr).toBe(0);
      expect(second.code, second.stderr).toBe(0);
      const again = await runCli(database.env, 'migrate');
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('Database schema is up to date.');

      const db = openDatabase(loadConfig(database.env));
      try {
        const applied = await db('knex_migrations').orderBy('id').pluck('name');
        expect(applied).toEqual(await migrationSource.getMigrations([]));
        await migrateLatest(db); // and once more in-process
        expect(await db('knex_migrations').count({ n: '*' })).toEqual([{ n: (await migrationSource.getMigrations([])).length }]);
      } finally {
        await db.destroy();
      }
    } finally {
      await database.close();
    }
  });

  it('several instances migrating a fresh database at the same moment all succeed (advisory lock around knex)', async () => {
    const database = await createTestDatabase();
    const dbs = Array.from({ length: 4 }, () => openDatabase(loadConfig(database.env)));
    try {
      // Without the lock, knex's own tables are created concurrently and all but one fail.
      const results = await Promise.allSettled(dbs.map((db) => migrateLatest(db)));
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(await dbs[0]!('knex_migrations').count({ n: '*' })).toEqual([{ n: (await migrationSource.getMigrations([])).length }]);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      await database.close();
    }
  });
});
