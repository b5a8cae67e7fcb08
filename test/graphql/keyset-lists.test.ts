import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyKeysetPage } from '../../src/repositories/tenant-scope.js';
import { keysetConnection, type ConnectionArgs, type Connection } from '../../src/shared/pagination/keyset.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * The keyset helper that every list (licenses, subscriptions, deliveries, and the lists still
 * to come) pages through, on a scratch table: both orders, both directions, and pages whose
 * records went away after their cursor was issued.
 */

const TABLE = 'keyset_scratch';

describe.each(['asc', 'desc'] as const)('keyset pages of a list ordered %s', (order) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ seed: false });
    await t.app.db.schema.createTable(TABLE, (table) => table.integer('id').primary());
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.app.db(TABLE).delete();
    await t.app.db(TABLE).insert(Array.from({ length: 10 }, (_, i) => ({ id: i + 1 })));
  });

  /** The list's ids in the order it is shown. */
  const shown = (ids: number[]) => (order === 'asc' ? ids : [...ids].reverse());
  const ALL = shown([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

  function page(args: ConnectionArgs): Promise<Connection<{ id: number }>> {
    return keysetConnection({
      args,
      list: { kind: 'scratch', owner: 1, filter: undefined, defaultSize: 3 },
      codec: t.app.services.cursors,
      fetch: async (p) => (await applyKeysetPage(t.app.db(TABLE).select('id'), 'id', p, order)).map((r) => ({ id: Number(r.id) })),
      keyOf: (row) => row.id,
    });
  }
  const ids = (c: Connection<{ id: number }>) => c.edges.map((e) => e.node.id);

  it('walks forward and back over every record once', async () => {
    const one = await page({ first: 4 });
    const two = await page({ first: 4, after: one.pageInfo.endCursor });
    const three = await page({ first: 4, after: two.pageInfo.endCursor });
    expect([ids(one), ids(two), ids(three)]).toEqual([ALL.slice(0, 4), ALL.slice(4, 8), ALL.slice(8)]);
    expect(three.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(ids(await page({ last: 4, before: three.pageInfo.startCursor }))).toEqual(ALL.slice(4, 8));
    expect(ids(await page({ last: 4 }))).toEqual(ALL.slice(6));
  });

  it('an empty page after the cursor leads back to the records before it, the cursor’s own record included', async () => {
    const one = await page({ first: 4 });
    await t.app.db(TABLE).whereIn('id', ALL.slice(4)).delete();
    const empty = await page({ first: 4, after: one.pageInfo.endCursor });
    expect(empty.edges).toEqual([]);
    expect(empty.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    expect(empty.pageInfo.startCursor).toBe(empty.pageInfo.endCursor);
    expect(ids(await page({ last: 4, before: empty.pageInfo.startCursor }))).toEqual(ALL.slice(0, 4));
    // The same place, used forward, waits for what arrives past the cursor.
    await t.app.db(TABLE).insert({ id: ALL[6]! });
    expect(ids(await page({ first: 4, after: empty.pageInfo.endCursor }))).toEqual([ALL[6]]);
  });

  it('an empty page before the cursor leads forward to the records after it, the cursor’s own record included', async () => {
    const last = await page({ last: 4 });
    await t.app.db(TABLE).whereIn('id', ALL.slice(0, 6)).delete();
    const empty = await page({ last: 4, before: last.pageInfo.startCursor });
    expect(empty.edges).toEqual([]);
    expect(empty.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    expect(ids(await page({ first: 4, after: empty.pageInfo.endCursor }))).toEqual(ALL.slice(6));
  });

  it('an empty page with nothing left on either side offers no way anywhere', async () => {
    const one = await page({ first: 4 });
    await t.app.db(TABLE).delete();
    const empty = await page({ first: 4, after: one.pageInfo.endCursor });
    expect(empty.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
    const none = await page({ first: 4 });
    expect(none.pageInfo).toEqual({ hasPreviousPage: false, hasNextPage: false, startCursor: null, endCursor: null });
  });
});
