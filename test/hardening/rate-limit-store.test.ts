import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimits } from '../../src/auth/rate-limits.js';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase, type Db } from '../../src/shared/db/knex.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/backend.js';

/*
 * RATE_LIMIT_STORE=postgres keeps the budgets in the table `rate_limits`. Its three counters are
 * built together at start-up; had each created the table itself, PostgreSQL could refuse the
 * second concurrent CREATE TABLE ("type rate_limits already exists") as an unhandled rejection,
 * which ends the process. The table comes from a migration instead.
 */
describe.runIf(onPostgres())('rate limits kept in PostgreSQL', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(loadConfig({ ...database.env, RATE_LIMIT_STORE: 'postgres' }));
    await migrateLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    await database.close();
  });

  it('the migrations create the table, so building the counters creates nothing', async () => {
    expect(await db.schema.hasTable('rate_limits')).toBe(true);
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    db.on('query', record);
    const config = loadConfig({ ...database.env, RATE_LIMIT_STORE: 'postgres' });
    const limits = createRateLimits(config.limits, db);
    const res = { headersSent: false, setHeader: () => undefined } as unknown as import('node:http').ServerResponse;
    await limits.perKey.consume(1, res);
    await limits.tokenPerAddress.consume('127.0.0.1', res);
    expect((await limits.tokenPrefixFailures.penalty('sgk_x')).consumedPoints).toBe(1);
    db.off('query', record);
    expect(statements.filter((sql) => /create table/i.test(sql))).toEqual([]);
    const rows = await db('rate_limits').select('key').orderBy('key');
    expect(rows.map((row: { key: string }) => row.key)).toEqual(['key:1', 'token-prefix:sgk_x', 'token:127.0.0.1']);
  });
});
