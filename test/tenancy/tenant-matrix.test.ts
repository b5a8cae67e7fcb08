import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyType } from '../../src/shared/principal.js';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, globalId, type GraphQLBody } from '../graphql/helpers.js';
import { databaseSnapshot } from '../support/backend.js';
import {
  fixtureOf,
  inRequestOrder,
  nodeFixtureOf,
  nodeTypes,
  namesRecords,
  pageSized,
  pathFor,
  prepareRouteRecords,
  requestFor,
  routeName,
  type CompanyRecords,
} from '../support/route-fixtures.js';
import { seededOf } from '../support/seed.js';

/*
 * The tenant matrix: for every (key, record) pair the record is visible, or not, identically
 * through REST, the GraphQL direct field and `node` with its global id.
 *
 * Seed: company 1 has customers 10 (sites 100, 101) and 11 (site 110); company 2 has customer 20
 * (site 200). Timesheets 9001@100, 9002@101, 9003@110, 9004@200. Staff 1001/1002 (company 1),
 * 2001 (company 2). Subscribers 301/302/303 (company 1), 401 (company 2).
 */

type Outcome = 'visible' | 'NOT_FOUND' | 'FORBIDDEN';

interface KeySpec {
  type: KeyType;
  companyId: number;
  customerIds?: number[];
  siteIds?: number[];
}

const KEYS = {
  'timesheet c1 (all)': { type: 'timesheet', companyId: 1 },
  'timesheet c1 customers [10]': { type: 'timesheet', companyId: 1, customerIds: [10] },
  'timesheet c1 customers [11]': { type: 'timesheet', companyId: 1, customerIds: [11] },
  'timesheet c1 customers [10, 11]': { type: 'timesheet', companyId: 1, customerIds: [10, 11] },
  'timesheet c1 sites [100]': { type: 'timesheet', companyId: 1, siteIds: [100] },
  'timesheet c1 sites [100, 110]': { type: 'timesheet', companyId: 1, siteIds: [100, 110] },
  'timesheet c1 customers [10] sites [101]': { type: 'timesheet', companyId: 1, customerIds: [10], siteIds: [101] },
  'timesheet c1 customers [11] sites [100]': { type: 'timesheet', companyId: 1, customerIds: [11], siteIds: [100] },
  'timesheet c1 customers [20]': { type: 'timesheet', companyId: 1, customerIds: [20] },
  'timesheet c1 sites [200]': { type: 'timesheet', companyId: 1, siteIds: [200] },
  'timesheet c2 (all)': { type: 'timesheet', companyId: 2 },
  'timesheet c2 sites [100]': { type: 'timesheet', companyId: 2, siteIds: [100] },
  'developer c1 (all)': { type: 'developer', companyId: 1 },
  'developer c1 customers [10] sites [100]': { type: 'developer', companyId: 1, customerIds: [10], siteIds: [100] },
  'developer c2 (all)': { type: 'developer', companyId: 2 },
} satisfies Record<string, KeySpec>;

type KeyName = keyof typeof KEYS;

/** Which timesheets each timesheet key sees; written out by hand, not derived. */
const TIMESHEETS_SEEN: Partial<Record<KeyName, number[]>> = {
  'timesheet c1 (all)': [9001, 9002, 9003],
  'timesheet c1 customers [10]': [9001, 9002],
  'timesheet c1 customers [11]': [9003],
  'timesheet c1 customers [10, 11]': [9001, 9002, 9003],
  'timesheet c1 sites [100]': [9001],
  'timesheet c1 sites [100, 110]': [9001, 9003],
  'timesheet c1 customers [10] sites [101]': [9002],
  'timesheet c1 customers [11] sites [100]': [],
  'timesheet c1 customers [20]': [],
  'timesheet c1 sites [200]': [],
  'timesheet c2 (all)': [9004],
  'timesheet c2 sites [100]': [],
};

const TIMESHEETS = [9001, 9002, 9003, 9004];

/** Developer records belong to a company; customer/site restrictions do not narrow them. */
const COMPANY_OF = { staff: { 1001: 1, 1002: 1, 2001: 2 }, license: { 50001: 1, 60001: 1, 70001: 2 }, subscriber: { 301: 1, 302: 1, 401: 2 } };
const LICENSE_OWNER: Record<number, { employeeId: number; licenseNumber: string }> = {
  50001: { employeeId: 1001, licenseNumber: 'NSW-0001' },
  60001: { employeeId: 1002, licenseNumber: 'VIC-0001' },
  70001: { employeeId: 2001, licenseNumber: 'QLD-0001' },
};

const keyNames = Object.keys(KEYS) as KeyName[];

function timesheetOutcome(key: KeyName, timesheetId: number): Outcome {
  const seen = TIMESHEETS_SEEN[key];
  if (seen === undefined) return 'FORBIDDEN';
  return seen.includes(timesheetId) ? 'visible' : 'NOT_FOUND';
}

function developerOutcome(key: KeyName, companyId: number): Outcome {
  const spec: KeySpec = KEYS[key];
  if (spec.type !== 'developer') return 'FORBIDDEN';
  return spec.companyId === companyId ? 'visible' : 'NOT_FOUND';
}

/** What a GraphQL response says about the field at `path`: the record, or the code of its error. */
function graphqlOutcome(body: GraphQLBody, path: string[], check: (value: any) => void): Outcome {
  let value: any = body.data;
  for (const step of path) value = value?.[step];
  if (value !== null && value !== undefined) {
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    check(value);
    return 'visible';
  }
  const codes = (body.errors ?? []).map((e) => e.extensions?.code);
  expect(codes, `null at ${path.join('.')} must come with one coded error: ${JSON.stringify(body)}`).toHaveLength(1);
  return codes[0] as Outcome;
}

/**
 * `node` agrees with the direct field, except for a record the key's type may not read at all:
 * the direct field says FORBIDDEN (it names the type, so that tells nothing about the record),
 * while `node` answers exactly as for an id no record has, so it cannot confirm existence.
 */
function expectNodeOutcome(actual: Outcome, expected: Outcome): void {
  expect(actual, 'GraphQL node').toBe(expected === 'FORBIDDEN' ? 'NOT_FOUND' : expected);
}

/** Ids that name no record of any type in the seed. */
const MISSING_ID = 888888;

/** A response with the record's number taken out of its error messages, so answers about two ids compare. */
function withoutId(body: GraphQLBody, id: number): GraphQLBody {
  const number = new RegExp(`\\b${id}\\b`, 'g');
  return { ...body, errors: body.errors?.map((e) => ({ ...e, message: e.message.replace(number, '<id>') })) };
}

function restOutcome(res: { status: number; headers: Headers; body: unknown }): Outcome {
  if (res.status === 200) {
    expectEnvelope(res, 200);
    return 'visible';
  }
  if (res.status === 404) {
    expectFailure(res, 404);
    return 'NOT_FOUND';
  }
  if (res.status === 403) {
    expectFailure(res, 403);
    return 'FORBIDDEN';
  }
  throw new Error(`unexpected HTTP ${res.status}: ${JSON.stringify(res.body)}`);
}

describe('tenant matrix: REST, GraphQL fields and node agree on every (key, record) pair', () => {
  let t: TestApp;
  const tokens = {} as Record<KeyName, string>;
  /** Subscription ids created in setup, by owning subscriber. */
  const subscriptionOf: Record<number, number> = {};

  beforeAll(async () => {
    t = await startTestApp();
    for (const name of keyNames) tokens[name] = await t.token(KEYS[name]);
    for (const [key, subscriberId] of [
      ['developer c1 (all)', 301],
      ['developer c2 (all)', 401],
    ] as const) {
      const data = expectData(
        await t.graphql(
          tokens[key],
          'mutation ($s: Int!, $u: String!) { createEventSubscription(input: { subscriberId: $s, uri: $u }) { eventSubscription { subscriptionId } } }',
          { s: subscriberId, u: `https://tenant-${subscriberId}.example.com/hook` },
        ),
      );
      subscriptionOf[subscriberId] = data.createEventSubscription.eventSubscription.subscriptionId;
    }
  });
  afterAll(() => t.close());

  /**
   * `node(id)` for one record, with __typename selected (what a probe would ask). When the
   * record is not visible, the answer must equal the answer for an id that names no record.
   */
  async function nodeOutcome(
    token: string,
    type: Parameters<typeof globalId>[0],
    id: number,
    fields: string,
    check: (value: any) => void,
  ): Promise<Outcome> {
    const query = `query ($id: ID!) { node(id: $id) { __typename ... on ${type} { ${fields} } } }`;
    const res = await t.graphql(token, query, { id: globalId(type, id) });
    const outcome = graphqlOutcome(res.body, ['node'], check);
    if (outcome !== 'visible') {
      const missing = await t.graphql(token, query, { id: globalId(type, MISSING_ID) });
      expect(withoutId(res.body, id), 'node answers as for a missing record').toEqual(withoutId(missing.body, MISSING_ID));
    }
    return outcome;
  }

  /** `nodes` over records of one type: exactly the visible ones, the others null with NOT_FOUND in place. */
  async function expectNodes(token: string, type: Parameters<typeof globalId>[0], ids: number[], visible: (id: number) => boolean) {
    const res = await t.graphql(token, 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', {
      ids: ids.map((id) => globalId(type, id)),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.nodes).toEqual(ids.map((id) => (visible(id) ? { __typename: type, id: globalId(type, id) } : null)));
    const failed = (res.body.errors ?? []).map((e: { path: unknown[]; extensions?: { code?: string } }) => [e.path, e.extensions?.code]);
    expect(failed).toEqual(ids.flatMap((id, index) => (visible(id) ? [] : [[['nodes', index], 'NOT_FOUND']])));
  }

  describe('timesheets', () => {
    const pairs = keyNames.flatMap((key) =>
      TIMESHEETS.map((timesheetId) => ({ key, timesheetId, expected: timesheetOutcome(key, timesheetId) })),
    );

    it.each(pairs)('$key → timesheet $timesheetId: $expected', async ({ key, timesheetId, expected }) => {
      const token = tokens[key];
      const check = (value: any) => expect(value.timesheetId).toBe(timesheetId);

      const rest = await t.request('GET', `/api/external/timesheets/${timesheetId}`, { token });
      if (rest.status === 200) check((rest.body as any).data);
      const direct = await t.graphql(token, `{ timesheet(timesheetId: ${timesheetId}) { timesheetId siteApiId } }`);
      const node = await nodeOutcome(token, 'Timesheet', timesheetId, 'timesheetId', check);

      expect(restOutcome(rest), 'REST').toBe(expected);
      expect(graphqlOutcome(direct.body, ['timesheet'], check), 'GraphQL timesheet').toBe(expected);
      expectNodeOutcome(node, expected);
    });

    it.each(keyNames)('%s → nodes over all timesheets returns exactly the visible ones, in place', async (key) => {
      await expectNodes(tokens[key], 'Timesheet', TIMESHEETS, (id) => timesheetOutcome(key, id) === 'visible');
    });
  });

  describe('staff and their licenses', () => {
    const pairs = keyNames.flatMap((key) =>
      Object.entries(COMPANY_OF.staff).map(([id, companyId]) => ({
        key,
        employeeId: Number(id),
        expected: developerOutcome(key, companyId),
      })),
    );

    it.each(pairs)('$key → staff $employeeId: $expected', async ({ key, employeeId, expected }) => {
      const token = tokens[key];
      const rest = await t.request('GET', `/api/external/staffs/${employeeId}/licenses`, { token });
      if (rest.status === 200) {
        const data = (rest.body as any).data as { employeeId: number }[];
        expect(data.length).toBeGreaterThan(0);
        for (const license of data) expect(license.employeeId).toBe(employeeId);
      }
      const check = (value: any) => expect(value.employeeId).toBe(employeeId);
      const direct = await t.graphql(token, `{ staff(employeeId: ${employeeId}) { employeeId } }`);
      const node = await nodeOutcome(token, 'Staff', employeeId, 'employeeId', check);

      expect(restOutcome(rest), 'REST').toBe(expected);
      expect(graphqlOutcome(direct.body, ['staff'], check), 'GraphQL staff').toBe(expected);
      expectNodeOutcome(node, expected);
    });

    const licensePairs = keyNames.flatMap((key) =>
      Object.entries(COMPANY_OF.license).map(([id, companyId]) => ({
        key,
        licenseId: Number(id),
        expected: developerOutcome(key, companyId),
      })),
    );

    it.each(licensePairs)('$key → license $licenseId: $expected', async ({ key, licenseId, expected }) => {
      const token = tokens[key];
      const { employeeId, licenseNumber } = LICENSE_OWNER[licenseId]!;
      const check = (value: any) => expect(value.securityLicenseId).toBe(licenseId);
      const rest = await t.request('GET', `/api/external/staffs/${employeeId}/licenses?licenseNumber=${licenseNumber}`, { token });
      if (rest.status === 200) expect((rest.body as any).data.map((l: { securityLicenseId: number }) => l.securityLicenseId)).toEqual([licenseId]);
      const direct = await t.graphql(
        token,
        `{ staff(employeeId: ${employeeId}) { licenses(licenseNumber: "${licenseNumber}") { edges { node { securityLicenseId } } } } }`,
      );
      const node = await nodeOutcome(token, 'License', licenseId, 'securityLicenseId', check);

      expect(restOutcome(rest), 'REST').toBe(expected);
      expect(
        graphqlOutcome(direct.body, ['staff'], (staff) => expect(staff.licenses.edges.map((e: any) => e.node.securityLicenseId)).toEqual([licenseId])),
        'GraphQL staff.licenses',
      ).toBe(expected);
      expectNodeOutcome(node, expected);
    });

    it.each(keyNames)('%s → nodes over all staff and licenses returns exactly the visible ones, in place', async (key) => {
      const visible = (companyId: number) => developerOutcome(key, companyId) === 'visible';
      await expectNodes(tokens[key], 'Staff', [1001, 1002, 2001], (id) => visible(COMPANY_OF.staff[id as 1001]));
      await expectNodes(tokens[key], 'License', [50001, 60001, 70001], (id) => visible(COMPANY_OF.license[id as 50001]));
    });

    it('a key never sees another company’s licenses in its own staff member’s list', async () => {
      for (const key of ['developer c1 (all)', 'developer c2 (all)'] as const) {
        const res = await t.graphql(tokens[key], '{ staff(employeeId: 1001) { licenses(first: 100) { edges { node { employeeId } } } } }');
        if (key === 'developer c2 (all)') {
          expect(res.body.data.staff).toBeNull();
        } else {
          const employees = new Set(res.body.data.staff.licenses.edges.map((e: any) => e.node.employeeId));
          expect([...employees]).toEqual([1001]);
        }
      }
    });
  });

  describe('subscribers and subscriptions', () => {
    const subscriberPairs = keyNames.flatMap((key) =>
      Object.entries(COMPANY_OF.subscriber).map(([id, companyId]) => ({
        key,
        subscriberId: Number(id),
        expected: developerOutcome(key, companyId),
      })),
    );

    it.each(subscriberPairs)('$key → subscriber $subscriberId: $expected', async ({ key, subscriberId, expected }) => {
      const token = tokens[key];
      const check = (value: any) => expect(value.subscriberId).toBe(subscriberId);
      const rest = await t.request('GET', `/api/webhook/subscribers/${subscriberId}/subscriptions`, { token });
      const direct = await t.graphql(token, `{ subscriber(subscriberId: ${subscriberId}) { subscriberId } }`);
      const node = await nodeOutcome(token, 'Subscriber', subscriberId, 'subscriberId', check);
      expect(restOutcome(rest), 'REST').toBe(expected);
      expect(graphqlOutcome(direct.body, ['subscriber'], check), 'GraphQL subscriber').toBe(expected);
      expectNodeOutcome(node, expected);
    });

    const subscriptionPairs = keyNames.flatMap((key) =>
      [301, 401].map((owner) => ({ key, owner, expected: developerOutcome(key, owner === 301 ? 1 : 2) })),
    );

    it.each(subscriptionPairs)('$key → the subscription of subscriber $owner: $expected', async ({ key, owner, expected }) => {
      const token = tokens[key];
      const id = subscriptionOf[owner]!;
      const rest = await t.request('GET', `/api/webhook/subscribers/${owner}/subscriptions`, { token });
      if (rest.status === 200) expect((rest.body as any).data.map((s: { id: number }) => s.id)).toEqual([id]);
      const direct = await t.graphql(token, `{ subscriber(subscriberId: ${owner}) { subscriptions { edges { node { subscriptionId } } } } }`);
      const node = await nodeOutcome(token, 'EventSubscription', id, 'subscriptionId', (s) => expect(s.subscriptionId).toBe(id));
      expect(restOutcome(rest), 'REST').toBe(expected);
      expect(
        graphqlOutcome(direct.body, ['subscriber'], (s) => expect(s.subscriptions.edges).toEqual([{ node: { subscriptionId: id } }])),
        'GraphQL subscriber.subscriptions',
      ).toBe(expected);
      expectNodeOutcome(node, expected);
    });

    it.each(keyNames)('%s → nodes over all subscribers and subscriptions returns exactly the visible ones, in place', async (key) => {
      const visible = (companyId: number) => developerOutcome(key, companyId) === 'visible';
      await expectNodes(tokens[key], 'Subscriber', [301, 302, 401], (id) => visible(COMPANY_OF.subscriber[id as 301]));
      await expectNodes(tokens[key], 'EventSubscription', [subscriptionOf[301]!, subscriptionOf[401]!], (id) =>
        visible(id === subscriptionOf[301] ? 1 : 2),
      );
    });

    it('nodes mixing own and foreign subscribers and subscriptions returns only the own ones', async () => {
      const ids = [
        globalId('Subscriber', 301),
        globalId('Subscriber', 401),
        globalId('EventSubscription', subscriptionOf[401]!),
        globalId('EventSubscription', subscriptionOf[301]!),
      ];
      const res = await t.graphql(tokens['developer c1 (all)'], 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids });
      expect(res.body.data.nodes).toEqual([{ __typename: 'Subscriber', id: ids[0] }, null, null, { __typename: 'EventSubscription', id: ids[3] }]);
      expect(res.body.errors.map((e: any) => [e.path, e.extensions?.code])).toEqual([
        [['nodes', 1], 'NOT_FOUND'],
        [['nodes', 2], 'NOT_FOUND'],
      ]);
    });
  });

  describe('writes across companies change nothing', () => {
    const snapshot = () => t.app.db('subscriptions').select('*').orderBy('id');

    // Each company's key against the other company's subscriber and subscription.
    const attempts = [
      { key: 'developer c1 (all)', foreignSubscriber: 401, ownSubscriber: 301 },
      { key: 'developer c1 customers [10] sites [100]', foreignSubscriber: 401, ownSubscriber: 301 },
      { key: 'developer c2 (all)', foreignSubscriber: 301, ownSubscriber: 401 },
    ] as const;

    it.each(attempts)('$key: REST PUT of a foreign subscription is 404', async ({ key, foreignSubscriber }) => {
      const before = await snapshot();
      const res = await t.request('PUT', `/api/webhook/subscriptions/${subscriptionOf[foreignSubscriber]}`, {
        token: tokens[key],
        body: { uri: 'https://attacker.example.com/', isActive: false },
      });
      expectFailure(res, 404);
      expect(await snapshot()).toEqual(before);
    });

    it.each(attempts)('$key: REST POST for a foreign subscriberId is 404', async ({ key, foreignSubscriber }) => {
      const before = await snapshot();
      const res = await t.request('POST', '/api/webhook/subscriptions', {
        token: tokens[key],
        body: { subscriberId: foreignSubscriber, uri: 'https://attacker.example.com/' },
      });
      expectFailure(res, 404);
      expect(await snapshot()).toEqual(before);
    });

    it.each(attempts)('$key: REST GET of the foreign subscriber’s list is 404 with no data', async ({ key, foreignSubscriber }) => {
      const res = await t.request('GET', `/api/webhook/subscribers/${foreignSubscriber}/subscriptions`, { token: tokens[key] });
      const envelope = expectFailure(res, 404);
      expect(envelope.data).toBeNull();
      expect(res.text).not.toContain(`tenant-${foreignSubscriber}`);
    });

    it.each(attempts)('$key: GraphQL mutations on foreign records are NOT_FOUND', async ({ key, foreignSubscriber }) => {
      const before = await snapshot();
      const update = await t.graphql(
        tokens[key],
        'mutation ($id: Int!) { updateEventSubscription(input: { subscriptionId: $id, uri: "https://attacker.example.com/", isActive: false }) { eventSubscription { uri } } }',
        { id: subscriptionOf[foreignSubscriber] },
      );
      expect(graphqlOutcome(update.body, ['updateEventSubscription'], () => undefined)).toBe('NOT_FOUND');
      const create = await t.graphql(
        tokens[key],
        'mutation ($s: Int!) { createEventSubscription(input: { subscriberId: $s, uri: "https://attacker.example.com/" }) { eventSubscription { uri } } }',
        { s: foreignSubscriber },
      );
      expect(graphqlOutcome(create.body, ['createEventSubscription'], () => undefined)).toBe('NOT_FOUND');
      expect(await snapshot()).toEqual(before);
    });

    it.each(attempts)('$key: an own subscriber with a foreign event filter id is refused', async ({ key, ownSubscriber }) => {
      const before = await snapshot();
      const foreignFilter = ownSubscriber === 301 ? 4011 : 3011;
      const rest = await t.request('POST', '/api/webhook/subscriptions', {
        token: tokens[key],
        body: { subscriberId: ownSubscriber, uri: 'https://cross.example.com/', webhookSubscriberEventFilterId: foreignFilter },
      });
      expectFailure(rest, 400);
      const gql = await t.graphql(
        tokens[key],
        'mutation ($s: Int!, $f: Int!) { createEventSubscription(input: { subscriberId: $s, uri: "https://cross.example.com/", webhookSubscriberEventFilterId: $f }) { eventSubscription { uri } } }',
        { s: ownSubscriber, f: foreignFilter },
      );
      expect(graphqlOutcome(gql.body, ['createEventSubscription'], () => undefined)).toBe('BAD_USER_INPUT');
      expect(await snapshot()).toEqual(before);
    });
  });
  describe('every route of the route table: the key type decides first, then the company', () => {
    let records: { own: CompanyRecords; foreign: CompanyRecords };
    beforeAll(async () => {
      records = await prepareRouteRecords(t);
    });

    const nodeCases = nodeTypes().flatMap((type) => keyNames.map((key) => ({ type, key })));

    it.each(nodeCases)('node of a $type with $key: its own company’s record or NOT_FOUND, never another’s', async ({ type, key }) => {
      const spec: KeySpec = KEYS[key];
      const { readers, record, field } = nodeFixtureOf(type);
      const mine = spec.companyId === 1 ? records.own : records.foreign;
      const theirs = spec.companyId === 1 ? records.foreign : records.own;
      const check = (id: number) => (value: any) => expect(value[field]).toBe(id);
      expect(await nodeOutcome(tokens[key], type, theirs[record], field, check(theirs[record])), "another company's").toBe('NOT_FOUND');
      const outcome = await nodeOutcome(tokens[key], type, mine[record], field, check(mine[record]));
      const narrowed = spec.type === 'timesheet' && (spec.customerIds !== undefined || spec.siteIds !== undefined);
      if (readers !== 'either' && readers !== spec.type) expect(outcome, 'a type the key may not read').toBe('NOT_FOUND');
      else if (!narrowed) expect(outcome, "the key's company's").toBe('visible');
    });

    const cases = inRequestOrder().flatMap((route) => keyNames.map((key) => ({ route: routeName(route), key, r: route })));

    it.each(cases)('$route with $key', async ({ r: route, key }) => {
      const spec: KeySpec = KEYS[key];
      const token = tokens[key];
      const mine = spec.companyId === 1 ? records.own : records.foreign;
      const theirs = spec.companyId === 1 ? records.foreign : records.own;
      const send = (request: { method: string; path: string; body?: unknown }) => t.request(request.method, request.path, { token, body: request.body });
      const before = await databaseSnapshot(t.app.db);

      if (route.keyType !== 'either' && route.keyType !== spec.type) {
        expectFailure(await send(requestFor(route, mine)), 403);
        expect(await databaseSnapshot(t.app.db), 'a refused request changes nothing').toBe(before);
        return;
      }
      if (namesRecords(route)) {
        expectFailure(await send(requestFor(route, theirs)), 404);
        expect(await databaseSnapshot(t.app.db), "a request for another company's record changes nothing").toBe(before);
      }
      if (route.method !== 'GET') return; // writes to the key's own records are the route's own tests' business

      // Developer records belong to the company; customer and site lists narrow only a timesheet key.
      const narrowed = spec.type === 'timesheet' && (spec.customerIds !== undefined || spec.siteIds !== undefined);
      const res = await send(requestFor(route, mine, pageSized(route) ? 'pageSize=100' : ''));
      if (narrowed && namesRecords(route)) expect([200, 404]).toContain(res.status);
      else expectEnvelope(res, 200);
      const items = fixtureOf(route).items;
      if (res.status !== 200 || items === undefined) return;
      const data = (res.body as { data: unknown[] }).data;
      expect(Array.isArray(data), 'a route with items answers a list').toBe(true);
      const ids = data.map(items.id);
      switch (items.kind) {
        case 'catalog': {
          const reference = await t.request(route.method, pathFor(route, records.own), { token: tokens['developer c1 (all)'] });
          expect(data, 'the catalog is the same for every key').toEqual(reference.body.data);
          break;
        }
        case 'subscription':
        case 'delivery':
          expect(ids).toContain(mine[items.kind]);
          expect(ids).not.toContain(theirs[items.kind]);
          break;
        default: {
          const company = seededOf(items.kind, spec.companyId);
          for (const id of ids) expect(company, `${items.kind} ${id} belongs to company ${spec.companyId}`).toContain(id);
          if (!narrowed && !namesRecords(route)) expect([...ids].sort((a, b) => Number(a) - Number(b)), 'the whole company').toEqual(company);
        }
      }
    });
  });
});
