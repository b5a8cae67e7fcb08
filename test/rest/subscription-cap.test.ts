import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const CAP = 3;
const CREATE = '/api/webhook/subscriptions';
const MESSAGE = `a subscriber may have at most ${CAP} subscriptions`;

describe('MAX_SUBSCRIPTIONS_PER_SUBSCRIBER', () => {
  let t: TestApp;
  let token: string;
  let counter = 0;
  const uri = () => `https://hooks.example.com/cap/${++counter}`;

  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_SUBSCRIPTIONS_PER_SUBSCRIBER: String(CAP) } });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  const post = (subscriberId: number, headers: Record<string, string> = {}) =>
    t.request('POST', CREATE, { token, body: { subscriberId, uri: uri() }, headers });

  /** Both tables a create writes: equal snapshots mean nothing was written. */
  const stored = async () => ({
    subscriptions: await t.app.db('subscriptions').orderBy('id'),
    keys: await t.app.db('idempotency_keys').orderBy('id'),
  });
  const liveCount = async (subscriberId: number) =>
    (await t.app.db('subscriptions').where({ subscriber_id: subscriberId }).whereNull('deleted_at')).length;

  it('refuses one more on REST (409 envelope), GraphQL (CONFLICT) and the idempotent create, writing nothing', async () => {
    for (let i = 0; i < CAP; i++) expectEnvelope(await post(301), 201);
    const before = await stored();

    const rest = expectFailure(await post(301), 409);
    expect(rest.errors.map((e) => e.message)).toEqual([MESSAGE]);

    const keyed = expectFailure(await post(301, { 'idempotency-key': 'cap-key-1' }), 409);
    expect(keyed.errors.map((e) => e.message)).toEqual([MESSAGE]);

    const gql = await t.graphql(
      token,
      'mutation($input: CreateEventSubscriptionInput!) { createEventSubscription(input: $input) { eventSubscription { subscriptionId } } }',
      { input: { subscriberId: 301, uri: uri(), idempotencyKey: 'cap-key-2' } },
    );
    expect(gql.body.errors).toHaveLength(1);
    expect(gql.body.errors[0].message).toBe(MESSAGE);
    expect(gql.body.errors[0].extensions.code).toBe('CONFLICT');

    expect(await stored(), 'nothing written').toEqual(before);
    expect(await liveCount(301)).toBe(CAP);
  });

  it('counts only subscriptions not deleted, and each subscriber on its own', async () => {
    const [first] = (await t.app.db('subscriptions').where({ subscriber_id: 301 }).orderBy('id').pluck('id')).map(Number);
    expectEnvelope(await t.request('DELETE', `${CREATE}/${first}`, { token }), 200);
    expectEnvelope(await post(301), 201);
    expectFailure(await post(301), 409);
    // Subscriber 302 has two pairs: the pair is chosen, and its own count starts at zero.
    const res = await t.request('POST', CREATE, { token, body: { subscriberId: 302, uri: uri(), event: 'timesheet', eventType: 'created' } });
    expectEnvelope(res, 201);
  });

  it('lets exactly one of many concurrent creates at one below the cap through', async () => {
    const now = new Date().toISOString();
    const existing = await liveCount(303);
    const filterId = 3031;
    await t.app.db('event_filters').insert({ id: filterId, subscriber_id: 303, event: 'timesheet', event_type: 'updated' });
    const rows = Array.from({ length: CAP - 1 - existing }, () => ({
      subscriber_id: 303,
      event_filter_id: filterId,
      uri: uri(),
      is_active: true,
      created_date_time: now,
      modified_date_time: now,
    }));
    if (rows.length > 0) await t.app.db('subscriptions').insert(rows);
    expect(await liveCount(303)).toBe(CAP - 1);

    const answers = await Promise.all(Array.from({ length: 8 }, () => post(303)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const answer of answers) if (answer.status === 409) expect(expectFailure(answer, 409).errors[0]!.message).toBe(MESSAGE);
    expect(await liveCount(303)).toBe(CAP);
  });
});
