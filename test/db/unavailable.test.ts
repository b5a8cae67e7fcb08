import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knex, { type Knex } from 'knex';
import { databaseUnavailability } from '../../src/shared/db/unavailable.js';
import { failureOfError } from '../../src/shared/http/failure.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/backend.js';

describe('the database unavailability rule', () => {
  let database: TestDatabase;
  let db: Knex;

  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection and a short acquireConnectionTimeout, so the pool gives up quickly.
    const pool = { min: 0, max: 1 };
    db = onPostgres()
      ? knex({ client: 'pg', connection: database.url, pool, acquireConnectionTimeout: 100 })
      : knex({ client: 'better-sqlite3', connection: { filename: database.url.slice('sqlite:'.length) }, useNullAsDefault: true, pool, acquireConnectionTimeout: 100 });
  });
  afterAll(async () => {
    await db.destroy();
    await database.close();
  });

  it("classes knex's pool time-out as unavailable, answered 503 with Retry-After", async () => {
    // The only connection is held by a transaction, so a second statement waits for the pool.
    const trx = await db.transaction();
    try {
      const waited = await db.raw('select 1').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(waited).toBeInstanceOf(knex.KnexTimeoutError);
      expect(databaseUnavailability(waited)).toBe('unavailable');
      expect(failureOfError(waited)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'retry-after': '1' } });
    } finally {
      await trx.rollback();
    }
  });

  it.each([
    ['SQLite busy', { code: 'SQLITE_BUSY' }, 'busy'],
    ['SQLite busy snapshot', { code: 'SQLITE_BUSY_SNAPSHOT' }, 'busy'],
    ['SQLite disk full', { code: 'SQLITE_FULL' }, 'unavailable'],
    ['SQLite read-only', { code: 'SQLITE_READONLY_DBMOVED' }, 'unavailable'],
    ['refused connection', { code: 'ECONNREFUSED' }, 'unavailable'],
    ['PostgreSQL shutting down', { code: '57P01' }, 'unavailable'],
    ['PostgreSQL connection failure', { code: '08006' }, 'unavailable'],
    ['connection lost under a query', new Error('Connection terminated unexpectedly'), 'unavailable'],
    ['wrapped by GraphQL', { originalError: { code: 'SQLITE_FULL' } }, 'unavailable'],
    ['a constraint', { code: 'SQLITE_CONSTRAINT_UNIQUE' }, undefined],
    ['a PostgreSQL constraint', { code: '23505' }, undefined],
    ['anything else', new Error('boom'), undefined],
  ])('%s', (_name, error, expected) => {
    expect(databaseUnavailability(error)).toBe(expected);
    expect(failureOfError(error).status).toBe(expected ? 503 : 500);
  });

  it('answers unavailable with the status, code and Retry-After of a busy database', () => {
    const failure = failureOfError({ code: 'ECONNREFUSED' });
    expect(failure).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'retry-after': '1' } });
    expect(failure.messages[0]).toMatch(/unavailable/);
    expect(failureOfError(new Error('boom')).unlogged).toBeInstanceOf(Error);
  });
});
