import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, expectFieldError } from './helpers.js';

// Ten customers with ten sites each, all in one query: the Armor limits must allow it.
const CUSTOMER_IDS = Array.from({ length: 8 }, (_, i) => 30 + i);

describe('GraphQL: customers and sites', () => {
  let t: TestApp;
  let developer: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.db('customers').insert(CUSTOMER_IDS.map((id) => ({ id, company_id: 1, name: `Customer ${id}` })));
    await t.app.db('sites').insert(
      [10, 11, ...CUSTOMER_IDS].flatMap((customerId) =>
        Array.from({ length: customerId < 30 ? 10 - (customerId === 10 ? 2 : 1) : 10 }, (_, i) => ({
          id: customerId * 100 + 50 + i,
          customer_id: customerId,
          name: `Site ${customerId}-${i}`,
        })),
      ),
    );
    developer = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it('serves 10 customers with 10 sites each in one query', async () => {
    const data = expectData(
      await t.graphql(
        developer,
        '{ customers(first: 10) { edges { node { customerApiId customerName sites(first: 10) { edges { node { siteApiId siteName customerApiId } } } } } } }',
      ),
    );
    const customers = data.customers.edges.map((e: { node: any }) => e.node);
    expect(customers.map((c: { customerApiId: number }) => c.customerApiId)).toEqual([10, 11, ...CUSTOMER_IDS]);
    for (const customer of customers) {
      expect(customer.sites.edges).toHaveLength(10);
      for (const edge of customer.sites.edges) expect(edge.node.customerApiId).toBe(customer.customerApiId);
    }
  });

  it('serves 10 customers with 10 sites each with the page sizes passed as variables', async () => {
    const data = expectData(
      await t.graphql(
        developer,
        'query ($customers: Int, $sites: Int!) { customers(first: $customers) { edges { node { customerApiId sites(first: $sites) { edges { node { siteApiId siteName customerApiId } } } } } } }',
        { customers: 10, sites: 10 },
      ),
    );
    expect(data.customers.edges).toHaveLength(10);
    for (const edge of data.customers.edges) expect(edge.node.sites.edges).toHaveLength(10);
  });

  it('pages a customer’s sites on from the batched first page', async () => {
    const first = expectData(
      await t.graphql(developer, '{ node(id: "' + encodeGlobalID('Customer', 30) + '") { ... on Customer { sites(first: 6) { edges { node { siteApiId } } pageInfo { endCursor hasNextPage } } } } }'),
    ).node.sites;
    expect(first.edges.map((e: { node: { siteApiId: number } }) => e.node.siteApiId)).toEqual([3050, 3051, 3052, 3053, 3054, 3055]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = expectData(
      await t.graphql(developer, `{ node(id: "${encodeGlobalID('Customer', 30)}") { ... on Customer { sites(after: "${first.pageInfo.endCursor}") { edges { node { siteApiId } } pageInfo { hasNextPage hasPreviousPage } } } } }`),
    ).node.sites;
    expect(rest.edges.map((e: { node: { siteApiId: number } }) => e.node.siteApiId)).toEqual([3056, 3057, 3058, 3059]);
    expect(rest.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  });

  it('pages sites forward and back, filtered by customerId', async () => {
    const first = expectData(
      await t.graphql(developer, '{ sites(customerId: 30, first: 4) { edges { node { siteApiId } } pageInfo { endCursor hasNextPage hasPreviousPage } } }'),
    ).sites;
    expect(first.edges.map((e: { node: { siteApiId: number } }) => e.node.siteApiId)).toEqual([3050, 3051, 3052, 3053]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = expectData(
      await t.graphql(developer, `{ sites(first: 4, after: "${first.pageInfo.endCursor}") { edges { node { siteApiId } } pageInfo { startCursor } } }`),
    ).sites;
    expect(second.edges.map((e: { node: { siteApiId: number } }) => e.node.siteApiId)).toEqual([3054, 3055, 3056, 3057]);
    const back = expectData(
      await t.graphql(developer, `{ sites(last: 4, before: "${second.pageInfo.startCursor}") { edges { node { siteApiId } } } }`),
    ).sites;
    expect(back.edges.map((e: { node: { siteApiId: number } }) => e.node.siteApiId)).toEqual([3050, 3051, 3052, 3053]);
  });

  it('pages customers forward and back, scoped like the REST list for every kind of key', async () => {
    const ALL = [10, 11, ...CUSTOMER_IDS];
    const CUSTOMERS = 'query ($first: Int, $last: Int, $after: String, $before: String) { customers(first: $first, last: $last, after: $after, before: $before) { edges { node { customerApiId } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }';
    const ids = (c: any) => c.edges.map((e: { node: { customerApiId: number } }) => e.node.customerApiId);
    const first = expectData(await t.graphql(developer, CUSTOMERS, { first: 4 })).customers;
    expect(ids(first)).toEqual(ALL.slice(0, 4));
    const second = expectData(await t.graphql(developer, CUSTOMERS, { first: 4, after: first.pageInfo.endCursor })).customers;
    expect(ids(second)).toEqual(ALL.slice(4, 8));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const back = expectData(await t.graphql(developer, CUSTOMERS, { last: 4, before: second.pageInfo.startCursor })).customers;
    expect(ids(back)).toEqual(ALL.slice(0, 4));
    expect(back.pageInfo.hasPreviousPage).toBe(false);
    const scoped = async (key: { customerIds?: number[]; siteIds?: number[]; companyId?: number }) =>
      ids(expectData(await t.graphql(await t.token({ type: 'timesheet', companyId: 1, ...key }), CUSTOMERS, { first: 100 })).customers);
    expect(await scoped({})).toEqual(ALL);
    expect(await scoped({ customerIds: [11, 31] })).toEqual([11, 31]);
    expect(await scoped({ siteIds: [100, 3150] })).toEqual([10, 31]);
    expect(await scoped({ customerIds: [11, 31], siteIds: [100, 3150] })).toEqual([31]);
    expect(await scoped({ companyId: 2 })).toEqual([20]);
  });

  it('node and nodes resolve customers and sites with the key’s scope', async () => {
    const siteKey = await t.token({ type: 'timesheet', companyId: 1, siteIds: [100] });
    const ids = [encodeGlobalID('Customer', 10), encodeGlobalID('Customer', 11), encodeGlobalID('Site', 100), encodeGlobalID('Site', 110)];
    const res = await t.graphql(siteKey, 'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Customer { customerApiId } ... on Site { siteApiId } } }', { ids });
    expect(res.body.data.nodes, JSON.stringify(res.body.errors)).toEqual([{ customerApiId: 10 }, null, { siteApiId: 100 }, null]);
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['NOT_FOUND', 'NOT_FOUND']);

    const other = await t.token({ type: 'developer', companyId: 2 });
    const foreign = expectFieldError(await t.graphql(other, `{ node(id: "${encodeGlobalID('Site', 100)}") { id } }`), 'NOT_FOUND', ['node']);
    expect(foreign.node).toBeNull();
    const customerKey = await t.token({ type: 'timesheet', companyId: 1, customerIds: [11] });
    const sites = expectData(await t.graphql(customerKey, '{ sites { edges { node { siteApiId customer { customerApiId } } } } }')).sites;
    expect(sites.edges.every((e: { node: { customer: { customerApiId: number } } }) => e.node.customer.customerApiId === 11)).toBe(true);
    const customers = expectData(await t.graphql(customerKey, '{ customers { edges { node { customerApiId } } } }')).customers;
    expect(customers.edges).toEqual([{ node: { customerApiId: 11 } }]);
  });
});
