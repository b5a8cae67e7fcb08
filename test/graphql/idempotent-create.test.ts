import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, expectFieldError, SUBSCRIPTION_SELECTION } from './helpers.js';

const CREATE = `mutation ($input: CreateEventSubscriptionInput!) {
  createEventSubscription(input: $input) { eventSubscription { gid: id subscriberId ${SUBSCRIPTION_SELECTION} } }
}`;

describe('GraphQL: createEventSubscription with an idempotencyKey', () => {
  let t: TestApp;
  let token: string;
  let clock = Date.parse('2026-04-01T08:00:00.000Z');

  beforeAll(async () => {
    t = await startTestApp({ now: () => clock });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  const create = (input: Record<string, unknown>) => t.graphql(token, CREATE, { input });

  async function stored(): Promise<unknown[]> {
    return [await t.app.db('subscriptions').orderBy('id'), await t.app.db('idempotency_keys').orderBy('id')];
  }

  it('answers a repeat with the original subscription, as it was created, and creates one', async () => {
    const input = { subscriberId: 301, uri: 'https://hooks.example.com/gql/1', idempotencyKey: 'gql-1' };
    const first = expectData(await create(input));
    clock += 1000;
    const id = first.createEventSubscription.eventSubscription.id as number;
    expectData(
      await t.graphql(
        token,
        'mutation ($input: UpdateEventSubscriptionInput!) { updateEventSubscription(input: $input) { eventSubscription { id } } }',
        { input: { subscriptionId: id, uri: 'https://hooks.example.com/gql/changed' } },
      ),
    );
    const before = await stored();
    expect(expectData(await create(input))).toEqual(first);
    expect(await stored()).toEqual(before);
  });

  it('refuses the same key with other input: CONFLICT, nothing written', async () => {
    const input = { subscriberId: 301, uri: 'https://hooks.example.com/gql/2', idempotencyKey: 'gql-2' };
    expectData(await create(input));
    const before = await stored();
    const data = expectFieldError(await create({ ...input, uri: 'https://hooks.example.com/gql/3' }), 'CONFLICT', ['createEventSubscription']);
    expect(data.createEventSubscription).toBeNull();
    expect(await stored()).toEqual(before);
  });

  it.each([[''], ['x'.repeat(256)], ['new\nline'], ['\u00e9t\u00e9']])('refuses the key %j: BAD_USER_INPUT, nothing written', async (key) => {
    const before = await stored();
    const data = expectFieldError(
      await create({ subscriberId: 301, uri: 'https://hooks.example.com/gql/4', idempotencyKey: key }),
      'BAD_USER_INPUT',
      ['createEventSubscription'],
    );
    expect(data.createEventSubscription).toBeNull();
    expect(await stored()).toEqual(before);
  });

  it('shares the key with REST: a REST create is answered again to GraphQL with the same fields', async () => {
    const rest = await t.request('POST', '/api/webhook/subscriptions', {
      token,
      headers: { 'idempotency-key': 'shared-1' },
      body: { subscriberId: 301, uri: 'https://hooks.example.com/gql/5' },
    });
    expect(rest.status).toBe(201);
    const before = await stored();
    const data = expectData(await create({ subscriberId: 301, uri: 'https://hooks.example.com/gql/5', idempotencyKey: 'shared-1' }));
    expect(data.createEventSubscription.eventSubscription.id).toBe(rest.body.data.id);
    expect(await stored()).toEqual(before);
  });
});
