import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase } from '../../src/shared/db/knex.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/backend.js';
import { linesOf, runCli } from '../support/cli-process.js';

/**
 * A start-up that cannot succeed ends the process: exit 1, one line on stderr, and nothing
 * (pool, timer, worker, socket) left to keep it alive. The deadline is the failure being
 * reported at all, not a speed target: a process that lingers is killed and counted as hung.
 */
const DEADLINE_MS = 10_000;

async function expectStartupFailure(env: Record<string, string | undefined>, message: RegExp, args: string[] = []) {
  const run = await runCli(['serve', ...args], { SUBSCRIPTION_KEYS: 'startup-test-key', LOG_LEVEL: 'warn', ...env }, DEADLINE_MS);
  expect(run.exited, `still running after ${DEADLINE_MS} ms:\n${run.stdout}${run.stderr}`).toBe(true);
  expect(run.code, run.stderr).toBe(1);
  const lines = linesOf(run.stderr);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(run.stdout).not.toContain('listening');
}

describe('shiftgate serve start-up failures', () => {
  let database: TestDatabase;
  let scratch: string;
  beforeEach(async () => {
    database = await createTestDatabase();
    scratch = mkdtempSync(join(tmpdir(), 'shiftgate-startup-'));
  });
  afterEach(async () => {
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('exits 1 with one line naming CORS_ORIGINS when it is not a list of origins', async () => {
    await expectStartupFailure({ ...database.env, CORS_ORIGINS: 'https://app.example.com/,example.com' }, /^shiftgate: invalid configuration: CORS_ORIGINS: /);
  });

  it('exits 1 with one line when the port is in use', async () => {
    const holder: Server = createServer();
    await new Promise<void>((done) => holder.listen(0, done));
    const port = (holder.address() as { port: number }).port;
    try {
      await expectStartupFailure({ ...database.env, PORT: String(port) }, new RegExp(`^shiftgate: cannot listen on port ${port}: address already in use$`));
      // --port takes the same road.
      await expectStartupFailure(database.env, new RegExp(`^shiftgate: cannot listen on port ${port}: address already in use$`), ['--port', String(port)]);
    } finally {
      await new Promise((done) => holder.close(done));
    }
  });

  it('exits 1 with one line when a migration fails', async () => {
    const db = openDatabase(loadConfig(database.env));
    try {
      await migrateLatest(db);
      // A database last migrated by a newer shiftgate: knex refuses to run against it.
      await db('knex_migrations').insert({ name: '9999_from_a_newer_version.ts', batch: 99, migration_time: new Date().toISOString() });
    } finally {
      await db.destroy();
    }
    await expectStartupFailure(database.env, /^shiftgate: database migration failed: .*9999_from_a_newer_version/);
  });

  it.skipIf(onPostgres())('exits 1 with one line when the SQLite file is not a database', async () => {
    const file = join(scratch, 'random.sqlite');
    writeFileSync(file, randomBytes(64 * 1024));
    await expectStartupFailure({ DATABASE_URL: `sqlite:${file}`, DATA_DIR: scratch }, /^shiftgate: cannot open the database .*random\.sqlite: .*not a database/);
  });

  it.skipIf(onPostgres())('exits 1 with one line when the SQLite file cannot be opened', async () => {
    // A directory where the file should be: unopenable for any user (a chmod 000 file is not, for root).
    const path = join(scratch, 'a-directory.sqlite');
    mkdirSync(path);
    await expectStartupFailure({ DATABASE_URL: `sqlite:${path}`, DATA_DIR: scratch }, /^shiftgate: cannot open the database .*a-directory\.sqlite: unable to open database file$/);
  });

  it.skipIf(onPostgres())('exits 1 with one line when the SQLite file’s directory cannot be created', async () => {
    const blocker = join(scratch, 'a-file');
    writeFileSync(blocker, 'not a directory');
    await expectStartupFailure(
      { DATABASE_URL: `sqlite:${join(blocker, 'sub', 'db.sqlite')}`, DATA_DIR: scratch },
      /^shiftgate: cannot open the database .*a-file\/sub\/db\.sqlite: .*(ENOTDIR|not a directory)/,
    );
  });

  it.skipIf(!onPostgres())('exits 1 with one line when PostgreSQL cannot be reached, without printing the URL', async () => {
    const url = 'postgres://shiftgate:hunter2-secret@127.0.0.1:1/nothing';
    await expectStartupFailure({ DATABASE_URL: url, DATA_DIR: scratch }, /^shiftgate: cannot open the database \(PostgreSQL at 127\.0\.0\.1:1\/nothing\): .*ECONNREFUSED/);
    const run = await runCli(['serve'], { DATABASE_URL: url, DATA_DIR: scratch, SUBSCRIPTION_KEYS: 'k' }, DEADLINE_MS);
    expect(run.stderr).not.toContain('hunter2');
  });
});
