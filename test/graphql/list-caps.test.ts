import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DELIVERY_ATTEMPTS_SHOWN } from '../../src/graphql/types/delivery.js';
import { MAX_SUBSCRIPTIONS_SHOWN } from '../../src/graphql/types/subscriber.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The lists without page arguments return at most their cap (the one the cost counts them by,
 * test/graphql/cost.test.ts): a subscriber's subscriptions asked for no page, and a delivery's
 * attempts, however many there are in the database.
 */
describe('lists without a page stop at their cap', () => {
  let t: TestApp;
  let token: string;
  const SUBSCRIPTIONS = MAX_SUBSCRIPTIONS_SHOWN + 200;
  const ATTEMPTS = MAX_DELIVERY_ATTEMPTS_SHOWN + 10;
  let firstSubscription = 0;

  beforeAll(async () => {
    // The cost limit is not what these tests are about: the lists below are well within this one.
    t = await startTestApp({ env: { GRAPHQL_MAX_COST: '10000000' } });
    token = await t.token({ type: 'developer', companyId: 1 });
    const db = t.app.db;
    const now = '2030-01-01T00:00:00.000Z';
    await db.batchInsert(
      'subscriptions',
      Array.from({ length: SUBSCRIPTIONS }, (_, i) => ({ subscriber_id: 301, event_filter_id: 3011, uri: `https://hooks.example.com/${i}`, is_active: true, created_date_time: now, modified_date_time: now })),
      200,
    );
    firstSubscription = Number(((await db('subscriptions').where({ subscriber_id: 301 }).min({ id: 'id' })) as { id: number }[])[0]!.id);
    const [event] = (await db('webhook_events').insert({ event: 'timesheet', event_type: 'approved', company_id: 1, record_id: 9001, occurred_at: now }).returning('id')) as ({ id: number } | number)[];
    const eventId = typeof event === 'object' ? event.id : event!;
    const [delivery] = (await db('webhook_deliveries')
      .insert({ event_id: eventId, subscription_id: firstSubscription, webhook_id: 'msg_cap', state: 'failed', attempt_count: ATTEMPTS, created_at: now, completed_at: now })
      .returning('id')) as ({ id: number } | number)[];
    const deliveryId = typeof delivery === 'object' ? delivery.id : delivery!;
    await db.batchInsert(
      'webhook_attempts',
      Array.from({ length: ATTEMPTS }, (_, i) => ({ delivery_id: deliveryId, attempted_at: new Date(Date.parse(now) + i * 1000).toISOString(), http_status: 500, duration_ms: i, error: null })),
      100,
    );
  });
  afterAll(() => t.close());

  it(`answers a subscriber's subscriptions asked for no page with the first ${MAX_SUBSCRIPTIONS_SHOWN}, and a cursor to the rest`, async () => {
    const query = 'query ($after: String) { subscriber(subscriberId: 301) { subscriptions(after: $after) { edges { node { subscriptionId } } pageInfo { hasNextPage endCursor } } } }';
    // No page arguments at all: $after is left out.
    const all = await t.graphql(token, query);
    expect(all.body.errors).toBeUndefined();
    const page = all.body.data.subscriber.subscriptions;
    expect(page.edges).toHaveLength(MAX_SUBSCRIPTIONS_SHOWN);
    expect(page.edges[0].node.subscriptionId).toBe(firstSubscription);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const rest = await t.graphql(token, query, { after: page.pageInfo.endCursor });
    expect(rest.body.errors).toBeUndefined();
    expect(rest.body.data.subscriber.subscriptions.edges).toHaveLength(SUBSCRIPTIONS - MAX_SUBSCRIPTIONS_SHOWN);
    expect(rest.body.data.subscriber.subscriptions.pageInfo.hasNextPage).toBe(false);
  });

  it(`answers a delivery's attempts with its latest ${MAX_DELIVERY_ATTEMPTS_SHOWN}, oldest first`, async () => {
    const res = await t.graphql(token, `{ subscriptionDeliveries(subscriptionId: ${firstSubscription}, first: 1) { edges { node { attemptCount attempts { durationMs } } } } }`);
    expect(res.body.errors).toBeUndefined();
    const [edge] = res.body.data.subscriptionDeliveries.edges;
    expect(edge.node.attemptCount).toBe(ATTEMPTS);
    expect(edge.node.attempts.map((a: { durationMs: number }) => a.durationMs)).toEqual(Array.from({ length: MAX_DELIVERY_ATTEMPTS_SHOWN }, (_, i) => ATTEMPTS - MAX_DELIVERY_ATTEMPTS_SHOWN + i));
  });
});
