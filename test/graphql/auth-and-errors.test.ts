import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/repositories/api-keys.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, expectFieldError, expectUnauthenticated, globalId } from './helpers.js';

const TIMESHEET_QUERY = '{ timesheet(timesheetId: 9001) { timesheetId } }';
const STAFF_QUERY = '{ staff(employeeId: 1001) { employeeId } }';

describe('GraphQL: GraphiQL, credentials and error codes', () => {
  let t: TestApp;
  let developer: string;
  let timesheetKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
    timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  describe('GraphiQL', () => {
    it('serves GraphiQL HTML on GET with Accept: text/html, without any credentials', async () => {
      const res = await t.request('GET', '/graphql', { headers: { accept: 'text/html' }, subKey: null, token: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type') ?? '').toMatch(/^text\/html/);
      expect(res.text).toMatch(/<html/i);
      expect(res.text.toLowerCase()).toContain('graphiql');
      // Every script of the page comes from this host (src/server/graphiql/), never a CDN.
      expect(res.text).not.toMatch(/<script[^>]+src=["']?https?:/);
    });

    it('does not execute a GET query without credentials', async () => {
      const res = await t.request('GET', `/graphql?query=${encodeURIComponent(STAFF_QUERY)}`, {
        headers: { accept: 'application/json' },
        subKey: null,
      });
      expectUnauthenticated(res);
    });
  });

  describe('UNAUTHENTICATED: HTTP 401 for the whole request', () => {
    const query = STAFF_QUERY;

    it('without the Authorization header', async () => {
      expectUnauthenticated(await t.graphql(null, query));
    });

    it('without the subscription key header', async () => {
      const res = await t.request('POST', '/graphql', { token: developer, subKey: null, body: { query } });
      expectUnauthenticated(res);
    });

    it('with a wrong subscription key', async () => {
      const res = await t.request('POST', '/graphql', { token: developer, subKey: `${SUB_KEY}x`, body: { query } });
      expectUnauthenticated(res);
    });

    it('with a token that is not a valid JWT', async () => {
      expectUnauthenticated(await t.graphql('not.a.jwt', query));
    });

    it('with a tampered token', async () => {
      const last = developer.at(-1) === 'A' ? 'B' : 'A';
      expectUnauthenticated(await t.graphql(developer.slice(0, -1) + last, query));
    });

    it('with an Authorization header that is not a bearer token', async () => {
      const res = await t.request('POST', '/graphql', {
        headers: { authorization: `Basic ${developer}` },
        body: { query },
      });
      expectUnauthenticated(res);
    });

    it('with the token of a revoked key, for mutations too', async () => {
      // A key cache of 0 s re-reads the key on every request, so the revocation shows at once.
      const fresh = await startTestApp({ env: { API_KEY_CACHE_SECONDS: '0' } });
      try {
        const { id, apiKey } = await fresh.key({ type: 'developer', companyId: 1 });
        const res = await fresh.request('POST', '/api/external/token/request', { body: { apiKey } });
        const token = res.body.data.accessToken as string;
        expectData(await fresh.graphql(token, query));
        expect(await revokeApiKey(fresh.app.db, id)).toBe(true);
        expectUnauthenticated(await fresh.graphql(token, query));
        const before = await fresh.app.db('subscriptions').count({ n: '*' });
        expectUnauthenticated(
          await fresh.graphql(
            token,
            'mutation { createEventSubscription(input: { subscriberId: 301, uri: "https://revoked.example.com/" }) { eventSubscription { id } } }',
          ),
        );
        expect(await fresh.app.db('subscriptions').count({ n: '*' })).toEqual(before);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('FORBIDDEN: the wrong KeyType', () => {
    it('a developer key may not read a timesheet', async () => {
      const data = expectFieldError(await t.graphql(developer, TIMESHEET_QUERY), 'FORBIDDEN', ['timesheet']);
      expect(data.timesheet).toBeNull();
    });

    // Through node the wrong KeyType looks like a missing record (NOT_FOUND), so an id cannot be
    // probed for existence; test/graphql/node.test.ts compares the two answers for every type.
    it('a developer key reading a timesheet through node gets NOT_FOUND, as for a missing one', async () => {
      const res = await t.graphql(developer, `{ node(id: "${globalId('Timesheet', 9001)}") { id ... on Timesheet { timesheetId } } }`);
      expectFieldError(res, 'NOT_FOUND', ['node']);
      expect(res.body.data.node).toBeNull();
      expect(res.body.errors).toHaveLength(1);
    });

    it.each([
      ['staff', STAFF_QUERY, ['staff']],
      ['subscriber', '{ subscriber(subscriberId: 301) { subscriberId } }', ['subscriber']],
      ['eventSubscription', '{ eventSubscription(subscriptionId: 1) { subscriptionId } }', ['eventSubscription']],
      [
        'createEventSubscription',
        'mutation { createEventSubscription(input: { subscriberId: 301, uri: "https://forbidden.example.com/" }) { eventSubscription { id } } }',
        ['createEventSubscription'],
      ],
      [
        'deleteEventSubscription',
        'mutation { deleteEventSubscription(input: { subscriptionId: 1 }) { eventSubscription { id } } }',
        ['deleteEventSubscription'],
      ],
      [
        'updateEventSubscription',
        'mutation { updateEventSubscription(input: { subscriptionId: 1, isActive: false }) { eventSubscription { id } } }',
        ['updateEventSubscription'],
      ],
    ])('a timesheet key may not use %s', async (_name, query, path) => {
      const before = await t.app.db('subscriptions').count({ n: '*' });
      const data = expectFieldError(await t.graphql(timesheetKey, query), 'FORBIDDEN', path);
      expect(data[path[0]!]).toBeNull();
      expect(await t.app.db('subscriptions').count({ n: '*' })).toEqual(before);
    });

    it.each([
      ['License', 50001],
      ['Staff', 1001],
      ['Subscriber', 301],
    ] as const)('a timesheet key reading a %s through node gets NOT_FOUND, as for a missing one', async (type, id) => {
      const res = await t.graphql(timesheetKey, `{ node(id: "${globalId(type, id)}") { id } }`);
      expectFieldError(res, 'NOT_FOUND', ['node']);
      expect(res.body.data.node).toBeNull();
      expect(res.body.errors).toHaveLength(1);
    });
  });

  describe('NOT_FOUND: missing or out-of-scope records are null', () => {
    it.each([
      ['staff that does not exist', 'developer', '{ staff(employeeId: 999999) { employeeId } }', 'staff'],
      ['staff of another company', 'developer', '{ staff(employeeId: 2001) { employeeId } }', 'staff'],
      ['subscriber that does not exist', 'developer', '{ subscriber(subscriberId: 999999) { subscriberId } }', 'subscriber'],
      ['subscriber of another company', 'developer', '{ subscriber(subscriberId: 401) { subscriberId } }', 'subscriber'],
      ['timesheet that does not exist', 'timesheet', '{ timesheet(timesheetId: 999999) { timesheetId } }', 'timesheet'],
      ['timesheet of another company', 'timesheet', '{ timesheet(timesheetId: 9004) { timesheetId } }', 'timesheet'],
    ])('%s', async (_name, which, query, field) => {
      const token = which === 'timesheet' ? timesheetKey : developer;
      const data = expectFieldError(await t.graphql(token, query), 'NOT_FOUND', [field]);
      expect(data[field]).toBeNull();
    });

    it('one missing record does not fail its siblings in the same request', async () => {
      const res = await t.graphql(
        developer,
        '{ mine: staff(employeeId: 1001) { employeeId } other: staff(employeeId: 2001) { employeeId } missing: staff(employeeId: 999999) { employeeId } }',
      );
      expectFieldError(res, 'NOT_FOUND', ['other']);
      expectFieldError(res, 'NOT_FOUND', ['missing']);
      expect(res.body.data).toEqual({ mine: { employeeId: 1001 }, other: null, missing: null });
      expect(res.body.errors).toHaveLength(2);
    });

    it('node with an id of a record that does not exist', async () => {
      const data = expectFieldError(
        await t.graphql(developer, `{ node(id: "${globalId('License', 999999)}") { id } }`),
        'NOT_FOUND',
        ['node'],
      );
      expect(data.node).toBeNull();
    });
  });
});
