import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Db, type Queryable } from '../../src/shared/db/knex.js';
import { QueryShape } from '../../src/shared/db/query-shape.js';
import { createTestDatabase, onPostgres, postgresServerUrl, type TestDatabase } from '../support/backend.js';

/*
 * A shaped query builds its SQL once per shape and fills in new bindings afterwards: what it
 * returns must be what knex's builder returns for the same values, whichever values came first.
 */

type Values = { owner: number; ids: readonly number[]; label: string | null };

function build(db: Queryable, values: Values, structure: string) {
  const query = db('shape_items').where('owner', values.owner).whereIn('id', values.ids as number[]);
  if (values.label !== null) query.where('label', values.label);
  return query.orderBy('id', structure === 'desc' ? 'desc' : 'asc').limit(structure === 'desc' ? 2 : 10).select('id', 'owner', 'label');
}

describe('QueryShape', () => {
  let database: TestDatabase;
  let db: Db;
  const statements: { sql: string; bindings: unknown[] }[] = [];
  const shape = new QueryShape('test items', build);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(loadConfig(database.env));
    await db.schema.createTable('shape_items', (t) => {
      t.integer('id').primary();
      t.integer('owner').notNullable();
      t.string('label');
    });
    await db('shape_items').insert(
      Array.from({ length: 12 }, (_, i) => ({ id: i + 1, owner: (i % 3) + 1, label: i % 2 === 0 ? 'even' : null })),
    );
    db.on('query', (q: { sql: string; bindings: unknown[] }) => statements.push(q));
  });

  afterAll(async () => {
    await db.destroy();
    await database.close();
  });

  const cases: { values: Values; structure: string }[] = [
    { values: { owner: 1, ids: [1, 4, 7], label: null }, structure: '' },
    { values: { owner: 2, ids: [2, 5, 8], label: null }, structure: '' },
    { values: { owner: 1, ids: [1, 4, 7], label: 'even' }, structure: '' },
    { values: { owner: 3, ids: [3, 6, 9], label: 'even' }, structure: '' },
    { values: { owner: 1, ids: [1, 4, 7, 10], label: null }, structure: 'desc' },
    { values: { owner: 3, ids: [12], label: null }, structure: 'desc' },
    { values: { owner: 2, ids: [2, 5, 8, 11], label: 'nothing' }, structure: '' },
  ];

  it('returns what the builder returns, for every shape and the values after the first', async () => {
    for (const { values, structure } of [...cases, ...cases.reverse()]) {
      const expected = await build(db, values, structure);
      expect(await shape.select(db, { values, structure })).toEqual(expected);
    }
  });

  it('runs inside a transaction, which sees its own writes', async () => {
    await db.transaction(async (trx) => {
      await trx('shape_items').insert({ id: 13, owner: 1, label: 'even' });
      const rows = await shape.select(trx, { values: { owner: 1, ids: [1, 13], label: 'even' } });
      expect(rows.map((r) => Number(r.id))).toEqual([1, 13]);
      await trx.rollback();
    }).catch(() => undefined);
    expect(await shape.select(db, { values: { owner: 1, ids: [1, 13], label: 'even' } })).toEqual([{ id: 1, owner: 1, label: 'even' }]);
  });

  it('emits one query event per select, with the same SQL for one shape', async () => {
    statements.length = 0;
    await shape.select(db, { values: { owner: 1, ids: [1, 4], label: null } });
    await shape.select(db, { values: { owner: 2, ids: [2, 5], label: null } });
    expect(statements).toHaveLength(2);
    expect(statements[0]!.sql).toBe(statements[1]!.sql);
    // The values are bound, never written into the SQL, and no placeholder marker is left.
    expect(statements[1]!.bindings).toEqual([2, 2, 5, 10]);
    expect(statements[0]!.sql).not.toContain('\u0000');
  });

  it.skipIf(!postgresServerUrl())('keeps one SQL text per dialect when a process holds databases of both kinds', async () => {
    const other = await createTestDatabase(onPostgres() ? 'sqlite' : 'postgres');
    const otherDb = openDatabase(loadConfig(other.env));
    try {
      await otherDb.schema.createTable('shape_items', (t) => {
        t.integer('id').primary();
        t.integer('owner').notNullable();
        t.string('label');
      });
      await otherDb('shape_items').insert({ id: 1, owner: 1, label: 'even' });
      const values = { owner: 1, ids: [1], label: 'even' };
      expect(await shape.select(otherDb, { values })).toEqual([{ id: 1, owner: 1, label: 'even' }]);
      expect(await shape.select(db, { values })).toEqual([{ id: 1, owner: 1, label: 'even' }]);
    } finally {
      await otherDb.destroy();
      await other.close();
    }
  });

  it.runIf(onPostgres())('prepares each shape once per connection, under a name taken from its SQL text', async () => {
    const single = openDatabase(loadConfig({ ...database.env, DATABASE_POOL_MAX: '1' }));
    try {
      await shape.select(single, { values: { owner: 1, ids: [1, 4], label: null } });
      await shape.select(single, { values: { owner: 2, ids: [2, 5], label: null } });
      await shape.select(single, { values: { owner: 2, ids: [2, 5], label: 'even' } });
      const client = single.client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
      const connection = (await client.acquireConnection()) as { connection: { parsedStatements: Record<string, string> } };
      const prepared = Object.entries(connection.connection.parsedStatements).filter(([name]) => name.startsWith('shape_'));
      await client.releaseConnection(connection);
      // Two shapes (with and without the label), each parsed once on the one connection.
      expect(prepared).toHaveLength(2);
      expect(prepared.map(([, text]) => text).every((text) => text.includes('$1'))).toBe(true);
      expect(await shape.select(single, { values: { owner: 3, ids: [3, 6, 9], label: 'even' } })).toEqual(
        await build(single, { owner: 3, ids: [3, 6, 9], label: 'even' }, ''),
      );
    } finally {
      await single.destroy();
    }
  });

  it('refuses a builder that binds a value it was not given', async () => {
    const wrong = new QueryShape('wrong', (q: Queryable, values: { owner: number }) =>
      q('shape_items').where('owner', `${String(values.owner)}x`),
    );
    await expect(wrong.select(db, { values: { owner: 1 } })).rejects.toThrow(/wrong: unknown binding/);
  });
});
