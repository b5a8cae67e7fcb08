import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/shared/db/knex.js';
import { createTestDatabase, onPostgres } from '../support/backend.js';
import { expectFailure, headerOf } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const UPDATE = `mutation ($input: UpdateEventSubscriptionInput!) {
  updateEventSubscription(input: $input) { eventSubscription { subscriptionId uri } }
}`;
const TIMESHEET = 'query { timesheet(timesheetId: 9001) { timesheetId } }';

function sqliteFileOf(t: TestApp): string {
  const { database } = t.app.config;
  if (database.client !== 'sqlite') throw new Error('a SQLite test');
  return database.filename;
}

/** Retry-After must be a whole number of seconds, at least one. */
function expectRetryAfter(res: { headers: Headers }): void {
  expect(headerOf(res, 'retry-after')).toMatch(/^[1-9][0-9]*$/);
}

describe.skipIf(onPostgres())('SQLite transactions', () => {
  it('take the write lock when they begin; nested ones stay savepoints', async () => {
    const database = await createTestDatabase();
    const db = openDatabase(loadConfig(database.env));
    const statements: string[] = [];
    db.on('query', (q: { sql: string }) => statements.push(q.sql));
    try {
      await db.transaction(async (trx) => {
        await trx.raw('select 1');
        await trx.transaction((inner) => inner.raw('select 2'));
      });
      expect(statements[0]).toBe('BEGIN IMMEDIATE;');
      expect(statements.filter((sql) => /^BEGIN/i.test(sql))).toHaveLength(1);
      expect(statements.some((sql) => /^SAVEPOINT /i.test(sql))).toBe(true);
    } finally {
      await db.destroy();
      await database.close();
    }
  });
});

/**
 * The lock is SQLite's, so these tests are SQLite's: on PostgreSQL writers wait on row locks
 * for as long as they are held, there is no busy timeout to run out, and nothing changes there.
 */
describe.skipIf(onPostgres())('a SQLite write lock held by another connection', () => {
  let t: TestApp;
  let token: string;
  let subscriptionId: number;
  let holder: Database.Database | undefined;

  beforeAll(async () => {
    t = await startTestApp({ env: { SQLITE_BUSY_TIMEOUT_MS: '150' } });
    token = await t.token({ type: 'developer', companyId: 1 });
    const created = await t.request('POST', '/api/webhook/subscriptions', {
      token,
      body: { subscriberId: 301, uri: 'https://hooks.example.com/locked' },
    });
    expect(created.status).toBe(201);
    subscriptionId = created.body.data.id as number;
  });
  afterEach(() => {
    if (holder?.inTransaction) holder.exec('ROLLBACK');
    holder?.close();
    holder = undefined;
  });
  afterAll(() => t.close());

  /** Another connection (as another process would) takes the write lock and keeps it. */
  function holdWriteLock(): void {
    holder = new Database(sqliteFileOf(t));
    holder.exec('BEGIN IMMEDIATE');
  }

  async function subscriptionsTable(): Promise<unknown[]> {
    return t.app.db('subscriptions').orderBy('id');
  }

  it('answers REST writes 503 with Retry-After once the busy timeout runs out, and writes nothing', async () => {
    const before = await subscriptionsTable();
    holdWriteLock();
    const updated = await t.request('PUT', `/api/webhook/subscriptions/${subscriptionId}`, {
      token,
      body: { uri: 'https://hooks.example.com/changed' },
    });
    const env = expectFailure(updated, 503);
    expect(env.status.errorMessage).toMatch(/busy/i);
    expectRetryAfter(updated);
    const create = () =>
      t.request('POST', '/api/webhook/subscriptions', {
        token,
        headers: { 'idempotency-key': 'while-locked' },
        body: { subscriberId: 301, uri: 'https://hooks.example.com/another' },
      });
    const created = await create();
    expectFailure(created, 503);
    expectRetryAfter(created);
    holder?.exec('ROLLBACK');
    expect(await subscriptionsTable()).toEqual(before);
    expect(await t.app.db('idempotency_keys').where({ idempotency_key: 'while-locked' })).toEqual([]);
    // The refused create left its key free.
    expect((await create()).status).toBe(201);
  });

  it('answers /graphql writes 503 with Retry-After and SERVICE_UNAVAILABLE, on either of its paths', async () => {
    const before = await subscriptionsTable();
    holdWriteLock();
    const variables = { input: { subscriptionId, uri: 'https://hooks.example.com/changed' } };
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await t.request('POST', '/graphql', { token, headers: { accept }, body: { query: UPDATE, variables } });
      expect(res.status, accept).toBe(503);
      expectRetryAfter(res);
      expect(res.body.errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
      expect(res.body.errors[0].message).toMatch(/busy/i);
    }
    holder?.exec('ROLLBACK');
    expect(await subscriptionsTable()).toEqual(before);
  });

  it('writes as usual once the lock is released', async () => {
    holdWriteLock();
    holder?.exec('ROLLBACK');
    const res = await t.request('PUT', `/api/webhook/subscriptions/${subscriptionId}`, {
      token,
      body: { uri: 'https://hooks.example.com/after' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.uri).toBe('https://hooks.example.com/after');
  });
});

/**
 * In WAL mode a reader is refused only in rare moments (another connection recovering the
 * log, say) that a test cannot bring about on demand, so the driver's statements answer as
 * SQLite would then: SQLITE_BUSY. SQLite's driver, so SQLite's suite only.
 */
describe.skipIf(onPostgres())('a SQLite read refused as busy', () => {
  let t: TestApp;
  let token: string;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterEach(() => {
    restore?.();
    restore = undefined;
  });
  afterAll(() => t.close());

  function refuseReads(): void {
    const probe = new Database(':memory:');
    const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'all' | 'get', unknown>;
    probe.close();
    const original = { all: statement.all, get: statement.get };
    const busy = () => {
      throw new Database.SqliteError('database is locked', 'SQLITE_BUSY');
    };
    statement.all = busy;
    statement.get = busy;
    restore = () => Object.assign(statement, original);
  }

  it('answers a REST read 503 with Retry-After', async () => {
    refuseReads();
    const res = await t.request('GET', '/api/external/timesheets/9001', { token });
    expectFailure(res, 503);
    expectRetryAfter(res);
  });

  it('answers a /graphql read 503 with Retry-After and SERVICE_UNAVAILABLE, on either of its paths', async () => {
    refuseReads();
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await t.request('POST', '/graphql', { token, headers: { accept }, body: { query: TIMESHEET } });
      expect(res.status, accept).toBe(503);
      expectRetryAfter(res);
      expect(res.body.errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
    }
  });

  it('answers 503 when the read that fails is the API key lookup of a token request', async () => {
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    refuseReads();
    const res = await t.request('POST', '/api/external/token/request', { body: { apiKey } });
    expectFailure(res, 503);
    expectRetryAfter(res);
  });
});
