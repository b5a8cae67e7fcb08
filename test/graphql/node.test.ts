import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { prepareRouteRecords, nodeFixtureOf, nodeTypes, type CompanyRecords } from '../support/route-fixtures.js';
import { expectData, expectFieldError, globalId, type GraphQLBody } from './helpers.js';

// node/nodes for every type implementing Node in the schema, compared with the direct fields.

describe('GraphQL: node and nodes', () => {
  let t: TestApp;
  let developer: string;
  let timesheetKey: string;
  let own: CompanyRecords;

  beforeAll(async () => {
    t = await startTestApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
    timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
    ({ own } = await prepareRouteRecords(t));
  });
  afterAll(() => t.close());

  // One case per type implementing Node in the schema; test/support/route-fixtures.ts says how to reach its record.
  const cases = nodeTypes().map((type) => {
    const fixture = nodeFixtureOf(type);
    return {
      type,
      key: fixture.readers === 'timesheet' ? ('timesheet' as const) : ('developer' as const),
      direct: fixture.direct.query,
      pick: fixture.direct.pick,
      rawId: () => own[fixture.record],
    };
  });

  /** The fields the direct query selected, id aside, for node to select too. */
  const fieldsOf = (direct: Record<string, unknown>) => Object.keys(direct).filter((k) => k !== 'id').join(' ');

  const tokenFor = (key: 'developer' | 'timesheet') => (key === 'developer' ? developer : timesheetKey);

  it.each(cases)('$type: node(id) returns the same record as the direct field', async (c) => {
    const direct = c.pick(expectData(await t.graphql(tokenFor(c.key), c.direct)));
    expect(direct.id).toBeTypeOf('string');
    // The id is the Relay global id of this type and record.
    expect(direct.id).toBe(globalId(c.type, c.rawId()));
    const data = expectData(
      await t.graphql(tokenFor(c.key), `query ($id: ID!) { node(id: $id) { __typename id ... on ${c.type} { ${fieldsOf(direct)} } } }`, {
        id: direct.id,
      }),
    );
    expect(data.node).toEqual({ __typename: c.type, ...direct });
  });

  it.each(cases)('$type: nodes([...]) returns it in place, and the id is stable', async (c) => {
    const direct = c.pick(expectData(await t.graphql(tokenFor(c.key), c.direct)));
    const data = expectData(
      await t.graphql(tokenFor(c.key), `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on ${c.type} { ${fieldsOf(direct)} } } }`, {
        ids: [direct.id, direct.id],
      }),
    );
    expect(data.nodes).toEqual([
      { __typename: c.type, ...direct },
      { __typename: c.type, ...direct },
    ]);
  });

  it('nodes mixes found, foreign and missing ids: each failure is null at its own index', async () => {
    const ids = [
      globalId('License', 50001), // own
      globalId('License', 70001), // company 2
      globalId('Staff', 1002), // own
      globalId('Staff', 2001), // company 2
      globalId('Subscriber', 302), // own
      globalId('Subscriber', 401), // company 2
      globalId('License', 999999), // missing
      globalId('EventSubscription', own.subscription), // own
    ];
    const res = await t.graphql(developer, 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids });
    for (const index of [1, 3, 5, 6]) expectFieldError(res, 'NOT_FOUND', ['nodes', index]);
    expect(res.body.errors).toHaveLength(4);
    expect(res.body.data.nodes).toEqual([
      { __typename: 'License', id: ids[0] },
      null,
      { __typename: 'Staff', id: ids[2] },
      null,
      { __typename: 'Subscriber', id: ids[4] },
      null,
      null,
      { __typename: 'EventSubscription', id: ids[7] },
    ]);
  });

  /** A response with the record's number taken out of its error messages, so answers about two ids compare. */
  const withoutId = (body: GraphQLBody, id: number): GraphQLBody => {
    const number = new RegExp(`\\b${id}\\b`, 'g');
    return { ...body, errors: body.errors?.map((e) => ({ ...e, message: e.message.replace(number, '<id>') })) };
  };

  // Each type some key type may not read, with such a key, an existing record and a number no record has.
  const wrongKey = cases
    .filter((c) => nodeFixtureOf(c.type).readers !== 'either')
    .map((c, i) => ({ type: c.type, key: c.key === 'developer' ? ('timesheet' as const) : ('developer' as const), existing: c.rawId, missing: 999990 + i }));

  it.each(wrongKey)('$type with a $key key: an existing record answers exactly like a missing one', async (c) => {
    const ask = (id: number) =>
      t.graphql(tokenFor(c.key), `query ($id: ID!) { node(id: $id) { __typename id ... on ${c.type} { __typename } } }`, {
        id: globalId(c.type, id),
      });
    const existing = await ask(c.existing());
    const missing = await ask(c.missing);
    expectFieldError(existing, 'NOT_FOUND', ['node']);
    expect(existing.body.data).toEqual({ node: null });
    expect(existing.body.errors).toHaveLength(1);
    expect(withoutId(existing.body, c.existing())).toEqual(withoutId(missing.body, c.missing));
  });

  it.each(wrongKey)('$type with a $key key: nodes answers an existing record exactly like a missing one', async (c) => {
    const res = await t.graphql(tokenFor(c.key), 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', {
      ids: [globalId(c.type, c.existing()), globalId(c.type, c.missing)],
    });
    expect(res.body.data).toEqual({ nodes: [null, null] });
    const [existing, missing] = res.body.errors;
    expect(existing.path).toEqual(['nodes', 0]);
    expect(missing.path).toEqual(['nodes', 1]);
    expect(withoutId({ errors: [{ ...existing, path: [] }] }, c.existing())).toEqual(
      withoutId({ errors: [{ ...missing, path: [] }] }, c.missing),
    );
    expect(existing.extensions.code).toBe('NOT_FOUND');
  });

  it('nodes with malformed ids: each is null with its own error, the others resolve', async () => {
    const ids = [
      globalId('License', 50001),
      'not-a-global-id',
      Buffer.from('Company:1').toString('base64'),
      Buffer.from('License:abc').toString('base64'),
      '',
      globalId('Staff', 1001),
    ];
    const res = await t.graphql(developer, 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids });
    expect(res.status).toBe(200);
    expect(res.body.data.nodes).toEqual([
      { __typename: 'License', id: ids[0] },
      null,
      null,
      null,
      null,
      { __typename: 'Staff', id: ids[5] },
    ]);
    expect(res.body.errors.map((e: any) => [e.path, e.extensions?.code])).toEqual(
      [1, 2, 3, 4].map((index) => [['nodes', index], 'BAD_USER_INPUT']),
    );
  });

  it('nodes of many timesheets with a restricted key returns exactly those in scope', async () => {
    const restricted = await t.token({ type: 'timesheet', companyId: 1, siteIds: [101] });
    const ids = [9001, 9002, 9003, 9004].map((id) => globalId('Timesheet', id));
    const res = await t.graphql(restricted, 'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Timesheet { timesheetId } } }', {
      ids,
    });
    for (const index of [0, 2, 3]) expectFieldError(res, 'NOT_FOUND', ['nodes', index]);
    expect(res.body.data.nodes).toEqual([null, { timesheetId: 9002 }, null, null]);
  });

  it('node with an id that is not a global id is an error, not a record', async () => {
    const res = await t.graphql(developer, '{ node(id: "1001") { id } }');
    expect(res.status).toBe(200);
    expect(res.body.data?.node ?? null).toBeNull();
    expect(res.body.errors?.map((e: any) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });

  it('node with a known type but a non-numeric id is BAD_USER_INPUT', async () => {
    const res = await t.graphql(developer, `{ node(id: "${Buffer.from('License:abc').toString('base64')}") { id } }`);
    expect(res.body.data?.node ?? null).toBeNull();
    expect(res.body.errors?.map((e: any) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });

  it('node with a global id of an unknown type is an error, not a record', async () => {
    const res = await t.graphql(developer, `{ node(id: "${Buffer.from('Company:1').toString('base64')}") { id } }`);
    expect(res.status).toBe(200);
    expect(res.body.data?.node ?? null).toBeNull();
    expect(res.body.errors?.map((e: any) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });
  it('nodes takes at most 100 ids (BAD_USER_INPUT beyond)', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => globalId('License', 50001 + (i % 45)));
    const res = await t.graphql(developer, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(res.body.errors?.map((e: any) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    const ok = await t.graphql(developer, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: ids.slice(0, 100) });
    expect(ok.body.data.nodes).toHaveLength(100);
  });
});
