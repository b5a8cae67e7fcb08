import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationCost } from '../../src/graphql/cost.js';
import { schema } from '../../src/graphql/schema.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { withoutWrites } from '../rest/http.js';

const SITES = '{ sites(first: 10) { edges { node { siteName customer { customerName } } } } }';
const SITES_COST = operationCost(schema, parse(SITES), undefined, {})!;
/** Two of SITES fit, three do not. */
const MAX_COST = Math.floor(SITES_COST * 2.5);
const BUDGET = 100;
const CREATE = 'mutation { createEventSubscription(input: { subscriberId: 301, uri: "https://hooks.example.com/batch" }) { eventSubscription { subscriptionId } } }';

/** The requests the key has left this window, from the RateLimit header. */
function remaining(headers: Headers): number {
  const match = /;r=(\d+);/.exec(headers.get('ratelimit') ?? '');
  if (!match) throw new Error(`no RateLimit header: ${headers.get('ratelimit')}`);
  return Number(match[1]);
}

/**
 * A batch is as many operations as it carries: each is charged to the key's budget, and their
 * costs together are held to GRAPHQL_MAX_COST, before any of them runs.
 */
describe('a batch', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(BUDGET), GRAPHQL_MAX_COST: String(MAX_COST), GRAPHQL_BATCH_LIMIT: '10' } });
  });
  afterAll(() => t.close());

  const batch = (token: string, operations: string[]) =>
    t.request('POST', '/graphql', { token, body: operations.map((query) => ({ query })) });

  it('charges a batch of 10 operations 10 requests of the key’s budget', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const one = await t.request('POST', '/graphql', { token, body: { query: '{ __typename }' } });
    expect(one.status).toBe(200);
    const before = remaining(one.headers);
    const ten = await batch(token, Array.from({ length: 10 }, () => '{ __typename }'));
    expect(ten.status).toBe(200);
    expect(ten.body).toHaveLength(10);
    expect(remaining(ten.headers)).toBe(before - 10);
    const next = await t.request('POST', '/graphql', { token, body: { query: '{ __typename }' } });
    expect(remaining(next.headers)).toBe(before - 11);
  });

  it('refuses a batch the key’s budget cannot pay for in full: 429, and nothing written', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    // Nine batches of ten and nine single requests leave one request of the budget.
    for (let i = 0; i < 9; i++) expect((await batch(token, Array.from({ length: 10 }, () => '{ __typename }'))).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await t.request('POST', '/graphql', { token, body: { query: '{ __typename }' } })).status).toBe(200);
    const refused = await withoutWrites(t, () => batch(token, [CREATE, '{ __typename }']));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['RATE_LIMITED']);
  });

  it('answers a batch whose operations cost no more than GRAPHQL_MAX_COST together', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const alone = await t.graphql(token, SITES);
    expect(alone.body.errors).toBeUndefined();
    const two = await batch(token, [SITES, SITES]);
    expect(two.status).toBe(200);
    expect(two.body.map((item: { data: unknown }) => item.data)).toEqual([alone.body.data, alone.body.data]);
  });

  it('refuses, before any of it runs, a batch whose operations together cost more than GRAPHQL_MAX_COST, each within it alone', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    expect(operationCost(schema, parse(CREATE), undefined, {})!).toBeLessThan(SITES_COST);
    const refused = await withoutWrites(t, () => batch(token, [CREATE, SITES, SITES, SITES]));
    expect(refused.status).toBe(400);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(refused.body.errors[0].message).toMatch(new RegExp(`cost limit of ${MAX_COST} exceeded`, 'i'));
    // Counted with the variables each operation is sent with.
    const paged = 'query ($n: Int) { sites(first: $n) { edges { node { siteName customer { customerName } } } } }';
    const withVariables = await t.request('POST', '/graphql', { token, body: [SITES, SITES, paged].map((query, i) => ({ query, variables: i === 2 ? { n: 10 } : {} })) });
    expect(withVariables.status).toBe(400);
    const small = await t.request('POST', '/graphql', { token, body: [SITES, paged].map((query, i) => ({ query, variables: i === 1 ? { n: 1 } : {} })) });
    expect(small.status).toBe(200);
  });
});
