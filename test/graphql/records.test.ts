import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SEEDED_TIMESHEET_9001, TIMESHEET_FIELDS } from '../support/contract-fields.js';
import { expectData, expectFieldError } from './helpers.js';

// The direct fields return the seeded records with the values REST returns.

describe('GraphQL: timesheet, staff and subscriber records', () => {
  let t: TestApp;
  let developer: string;
  let timesheetKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
    timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  it('timesheet(timesheetId) returns every field of a timesheet entry (docs/rest-api.md)', async () => {
    const data = expectData(await t.graphql(timesheetKey, `{ timesheet(timesheetId: 9001) { ${TIMESHEET_FIELDS.join(' ')} } }`));
    expect(data.timesheet).toEqual(SEEDED_TIMESHEET_9001);
  });

  it('staff(employeeId) returns the employee', async () => {
    const data = expectData(
      await t.graphql(developer, '{ staff(employeeId: 1002) { employeeId staffId firstName lastName employeeReferenceNumber email } }'),
    );
    expect(data.staff).toEqual({
      employeeId: 1002,
      staffId: 'S-1002',
      firstName: 'Sam',
      lastName: 'Okafor',
      employeeReferenceNumber: 'REF-1002',
      email: 'sam@example.com',
    });
  });

  it('subscriber(subscriberId) lists its subscriptions as a connection, all of them without page arguments', async () => {
    for (const [event, eventType, uri] of [
      ['timesheet', 'created', 'https://a.example.com/'],
      ['license', 'expiring', 'https://b.example.com/'],
      ['license', 'expiring', 'https://c.example.com/'],
    ]) {
      expectData(
        await t.graphql(
          developer,
          'mutation ($input: CreateEventSubscriptionInput!) { createEventSubscription(input: $input) { eventSubscription { subscriptionId } } }',
          { input: { subscriberId: 302, uri, event, eventType } },
        ),
      );
    }
    const data = expectData(
      await t.graphql(
        developer,
        '{ subscriber(subscriberId: 302) { subscriberId name subscriptions { edges { node { subscriberId uri event eventType isActive } } pageInfo { hasNextPage hasPreviousPage } } } }',
      ),
    );
    expect(data.subscriber.subscriberId).toBe(302);
    expect(data.subscriber.name).toBe('Acme rostering');
    expect(data.subscriber.subscriptions.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { subscriberId: 302, uri: 'https://a.example.com/', event: 'timesheet', eventType: 'created', isActive: true },
      { subscriberId: 302, uri: 'https://b.example.com/', event: 'license', eventType: 'expiring', isActive: true },
      { subscriberId: 302, uri: 'https://c.example.com/', event: 'license', eventType: 'expiring', isActive: true },
    ]);
    expect(data.subscriber.subscriptions.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false });

    const paged = expectData(
      await t.graphql(
        developer,
        '{ subscriber(subscriberId: 302) { subscriptions(first: 2) { edges { node { uri } } pageInfo { hasNextPage endCursor } } } }',
      ),
    );
    expect(paged.subscriber.subscriptions.edges).toHaveLength(2);
    expect(paged.subscriber.subscriptions.pageInfo.hasNextPage).toBe(true);
    const rest = expectData(
      await t.graphql(
        developer,
        'query ($after: String) { subscriber(subscriberId: 302) { subscriptions(first: 2, after: $after) { edges { node { uri } } pageInfo { hasNextPage } } } }',
        { after: paged.subscriber.subscriptions.pageInfo.endCursor },
      ),
    );
    expect(rest.subscriber.subscriptions.edges).toEqual([{ node: { uri: 'https://c.example.com/' } }]);
    expect(rest.subscriber.subscriptions.pageInfo.hasNextPage).toBe(false);
  });

  it('a subscriber without subscriptions has an empty connection', async () => {
    const data = expectData(await t.graphql(developer, '{ subscriber(subscriberId: 303) { subscriptions { edges { cursor } } } }'));
    expect(data.subscriber.subscriptions.edges).toEqual([]);
  });

  it('subscriptions page arguments are checked like licenses: sizes 1..100 and signed cursors', async () => {
    for (const args of ['first: 0', 'last: 101']) {
      const res = await t.graphql(developer, `{ subscriber(subscriberId: 302) { subscriptions(${args}) { edges { cursor } } } }`);
      expect(res.body.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      expect(res.body.data.subscriber).toBeNull();
    }
    const res = await t.graphql(developer, '{ subscriber(subscriberId: 302) { subscriptions(first: 1, after: "nope") { edges { cursor } } } }');
    expect(res.body.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).toEqual(['BAD_CURSOR']);
  });

  it('eventSubscription(subscriptionId) returns one of the company’s subscriptions, and NOT_FOUND otherwise', async () => {
    const created = expectData(
      await t.graphql(
        developer,
        'mutation ($input: CreateEventSubscriptionInput!) { createEventSubscription(input: $input) { eventSubscription { subscriptionId uri } } }',
        { input: { subscriberId: 301, uri: 'https://one.example.com/' } },
      ),
    ).createEventSubscription.eventSubscription;
    const data = expectData(
      await t.graphql(developer, `{ eventSubscription(subscriptionId: ${created.subscriptionId}) { subscriptionId uri subscriberId } }`),
    );
    expect(data.eventSubscription).toEqual({ ...created, subscriberId: 301 });
    const missing = expectFieldError(await t.graphql(developer, '{ eventSubscription(subscriptionId: 999999) { subscriptionId } }'), 'NOT_FOUND', [
      'eventSubscription',
    ]);
    expect(missing.eventSubscription).toBeNull();
  });
});
