import { isInterfaceType, type GraphQLObjectType } from 'graphql';
import { expect } from 'vitest';
import { schema } from '../../src/graphql/schema.js';
import { routes, type RestRoute } from '../../src/rest/routes.js';
import type { KeyType } from '../../src/shared/principal.js';
import { emitEvent } from '../../src/webhooks/outbox.js';
import type { SeededKind } from './seed.js';
import type { TestApp } from './test-app.js';

/*
 * What the suites that cover every REST route (fuzzing, backend parity, the tenant matrix, SQL
 * statement counts, KeyType enforcement) need to know of a route beyond its row in
 * src/rest/routes.ts: which records its path parameters name, a body it accepts, filters worth
 * sending, and what its list holds. Those suites iterate `routes` and look the route up here, so
 * a new route is either covered by all of them or fails each with "no fixture for route …".
 */

/** The records one company holds for the routes to aim at: the seed's, and a subscription and delivery made by `prepareRouteRecords`. */
export interface CompanyRecords {
  companyId: number;
  staff: number;
  license: number;
  timesheet: number;
  customer: number;
  site: number;
  subscriber: number;
  subscription: number;
  delivery: number;
}

export interface RouteFixture {
  /** The route's path parameters, naming records of one company. Required when the path has parameters. */
  params?: (r: CompanyRecords) => Record<string, number>;
  /** A JSON body the route accepts for that company's records. Required when the route reads a JSON body. */
  body?: (r: CompanyRecords) => Record<string, unknown>;
  /** Query strings (without "?") worth sending besides none: filters that select something in the seed. */
  queries?: readonly string[];
  /** What a list's items are: the seeded kind (so scoping can be checked) and an item's id. */
  items?: { kind: SeededKind | 'subscription' | 'delivery' | 'catalog'; id: (item: any) => number | string };
}

const subscriptionId = (r: CompanyRecords) => ({ id: r.subscription });

const FIXTURES: Record<string, RouteFixture> = {
  'GET /api/external/staffs/:id/licenses': {
    params: (r) => ({ id: r.staff }),
    queries: ['licenseNumber=NSW-0007'],
    items: { kind: 'license', id: (l) => l.securityLicenseId },
  },
  'GET /api/external/timesheets/:id': { params: (r) => ({ id: r.timesheet }) },
  'POST /api/webhook/subscriptions': {
    body: (r) => ({ subscriberId: r.subscriber, uri: `https://hooks.example.com/company-${r.companyId}` }),
  },
  'PUT /api/webhook/subscriptions/:id': { params: subscriptionId, body: () => ({ isActive: true }) },
  'GET /api/webhook/subscribers/:subscriberId/subscriptions': {
    params: (r) => ({ subscriberId: r.subscriber }),
    items: { kind: 'subscription', id: (s) => s.id },
  },
  'GET /api/webhook/events': { items: { kind: 'catalog', id: (e) => `${e.event}.${e.eventType}` } },
  'GET /api/webhook/subscriptions/:id/deliveries': { params: subscriptionId, items: { kind: 'delivery', id: (d) => d.deliveryId } },
  'POST /api/webhook/subscriptions/:id/deliveries/:deliveryId/redeliver': { params: (r) => ({ id: r.subscription, deliveryId: r.delivery }) },
  'GET /api/external/timesheets': {
    queries: ['status=Pending&from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z', 'customerId=10&employeeId=1001', 'siteId=100', 'modifiedSince=2000-01-01T00:00:00Z'],
    items: { kind: 'timesheet', id: (t) => t.timesheetId },
  },
  'GET /api/external/staffs': {
    queries: ['staffId=S-1002', 'email=alex%40example.com', 'employeeReferenceNumber=REF-1001'],
    items: { kind: 'staff', id: (s) => s.employeeId },
  },
  'GET /api/webhook/subscriptions/:id': { params: subscriptionId },
  'DELETE /api/webhook/subscriptions/:id': { params: subscriptionId },
  'GET /api/external/customers': { items: { kind: 'customer', id: (c) => c.customerApiId } },
  'GET /api/external/sites': { queries: ['customerId=10'], items: { kind: 'site', id: (s) => s.siteApiId } },
};

export const routeName = (route: Pick<RestRoute, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/** The names of a route's path parameters, in order. */
export const pathParams = (route: RestRoute): string[] => [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** The route's fixture, checked against its row: parameters and body where the route takes them. */
export function fixtureOf(route: RestRoute): RouteFixture {
  const name = routeName(route);
  const fixture = FIXTURES[name];
  if (fixture === undefined) throw new Error(`no fixture for route ${name}: add one to test/support/route-fixtures.ts`);
  const names = pathParams(route);
  if (names.length > 0 && fixture.params === undefined) throw new Error(`no path parameters in the fixture of route ${name}`);
  if (route.body === 'json' && fixture.body === undefined) throw new Error(`no body in the fixture of route ${name}`);
  return fixture;
}

/** Fixtures whose route is no longer in the table (a renamed or deleted route). */
export const staleFixtures = (): string[] => Object.keys(FIXTURES).filter((name) => !routes.some((r) => routeName(r) === name));

/** The path of a route for one company's records, with an optional query string. */
export function pathFor(route: RestRoute, records: CompanyRecords, query = ''): string {
  const params = fixtureOf(route).params?.(records) ?? {};
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`the fixture of route ${routeName(route)} has no value for :${name}`);
    return String(value);
  });
  return query === '' ? path : `${path}?${query}`;
}

/** A request to the route for one company's records. */
export function requestFor(route: RestRoute, records: CompanyRecords, query = ''): { method: string; path: string; body?: Record<string, unknown> } {
  const body = fixtureOf(route).body?.(records);
  return { method: route.method, path: pathFor(route, records, query), ...(body === undefined ? {} : { body }) };
}

/** Whether the route names records (path parameters or a body), so another company's can be aimed at. */
export const namesRecords = (route: RestRoute): boolean => pathParams(route).length > 0 || route.body === 'json';

/** A key type the route serves, and the one it refuses (none for 'either'). */
export const allowedKey = (route: RestRoute): KeyType => (route.keyType === 'timesheet' ? 'timesheet' : 'developer');
export function refusedKey(route: RestRoute): KeyType | undefined {
  if (route.keyType === 'either') return undefined;
  return route.keyType === 'developer' ? 'timesheet' : 'developer';
}

export const pageSized = (route: RestRoute): boolean => route.query.some((q) => q.kind === 'pageSize');

/** GET routes in the table order; writes; DELETE last (it removes what the others aim at). */
export function inRequestOrder(list: readonly RestRoute[] = routes): RestRoute[] {
  const rank = (r: RestRoute) => (r.method === 'DELETE' ? 2 : r.method === 'GET' ? 0 : 1);
  return [...list].sort((a, b) => rank(a) - rank(b));
}

export const OCCURRED_AT = '2026-11-03T06:00:00.000Z';

/**
 * Gives company 1 (`own`) and company 2 (`foreign`) a subscription each, with one delivery, and
 * stops the webhook workers so nothing changes behind the requests' backs (no delivery is sent).
 */
export async function prepareRouteRecords(t: TestApp): Promise<{ own: CompanyRecords; foreign: CompanyRecords }> {
  await t.app.webhooks.stop();
  const make = async (seeded: Omit<CompanyRecords, 'subscription' | 'delivery'>): Promise<CompanyRecords> => {
    const { companyId, subscriber, timesheet } = seeded;
    const token = await t.token({ type: 'developer', companyId });
    const created = await t.request('POST', '/api/webhook/subscriptions', {
      token,
      body: { subscriberId: subscriber, uri: `https://company-${companyId}.example.com/hook`, event: 'timesheet', eventType: 'approved' },
    });
    expect(created.status, created.text).toBe(201);
    const subscription = created.body.data.id as number;
    await emitEvent(t.app.db, { event: 'timesheet', eventType: 'approved', companyId, recordId: timesheet, occurredAt: OCCURRED_AT });
    const delivery = await t.app.db('webhook_deliveries').where('subscription_id', subscription).first('id');
    expect(delivery, `a delivery for subscription ${subscription}`).toBeDefined();
    return { ...seeded, subscription, delivery: Number(delivery.id) };
  };
  return {
    own: await make({ companyId: 1, staff: 1001, license: 50001, timesheet: 9001, customer: 10, site: 100, subscriber: 301 }),
    foreign: await make({ companyId: 2, staff: 2001, license: 70001, timesheet: 9004, customer: 20, site: 200, subscriber: 401 }),
  };
}

/**
 * What tests of `node` and `nodes` need of each GraphQL type implementing Node: the key types that
 * may read it, its record of each company, the field holding its number, and the direct field that
 * reaches the own record. test/graphql/node.test.ts and the tenant matrix take the type list from
 * the schema and look each type up here.
 */
export interface NodeFixture {
  readers: 'developer' | 'timesheet' | 'either';
  record: keyof Omit<CompanyRecords, 'companyId'>;
  /** The field holding the record's number. */
  field: string;
  /** A query reaching company 1's record (`own`) through the direct fields, and where its answer holds it. */
  direct: { query: string; pick: (data: any) => any };
}

const NODE_FIXTURES: Record<string, NodeFixture> = {
  License: {
    readers: 'developer',
    record: 'license',
    field: 'securityLicenseId',
    direct: { query: '{ staff(employeeId: 1001) { licenses(first: 1) { edges { node { id securityLicenseId licenseNumber } } } } }', pick: (d) => d.staff.licenses.edges[0].node },
  },
  Staff: { readers: 'developer', record: 'staff', field: 'employeeId', direct: { query: '{ staff(employeeId: 1001) { id employeeId firstName } }', pick: (d) => d.staff } },
  Timesheet: {
    readers: 'timesheet',
    record: 'timesheet',
    field: 'timesheetId',
    direct: { query: '{ timesheet(timesheetId: 9001) { id timesheetId siteName } }', pick: (d) => d.timesheet },
  },
  Subscriber: {
    readers: 'developer',
    record: 'subscriber',
    field: 'subscriberId',
    direct: { query: '{ subscriber(subscriberId: 301) { id subscriberId name } }', pick: (d) => d.subscriber },
  },
  EventSubscription: {
    readers: 'developer',
    record: 'subscription',
    field: 'subscriptionId',
    direct: {
      query: '{ subscriber(subscriberId: 301) { subscriptions(first: 1) { edges { node { id subscriptionId uri } } } } }',
      pick: (d) => d.subscriber.subscriptions.edges[0].node,
    },
  },
  Customer: {
    readers: 'either',
    record: 'customer',
    field: 'customerApiId',
    direct: { query: '{ customers(first: 1) { edges { node { id customerApiId customerName } } } }', pick: (d) => d.customers.edges[0].node },
  },
  Site: {
    readers: 'either',
    record: 'site',
    field: 'siteApiId',
    direct: { query: '{ sites(first: 1) { edges { node { id siteApiId siteName } } } }', pick: (d) => d.sites.edges[0].node },
  },
};

/** The object types of the schema that implement Node. */
export function nodeTypes(): string[] {
  const node = schema.getType('Node');
  if (!isInterfaceType(node)) throw new Error('the schema has no Node interface');
  return schema.getPossibleTypes(node).map((t: GraphQLObjectType) => t.name).sort();
}

export function nodeFixtureOf(type: string): NodeFixture {
  const fixture = NODE_FIXTURES[type];
  if (fixture === undefined) throw new Error(`no fixture for Node type ${type}: add one to test/support/route-fixtures.ts`);
  return fixture;
}

/** Node fixtures whose type no longer implements Node. */
export const staleNodeFixtures = (): string[] => Object.keys(NODE_FIXTURES).filter((type) => !nodeTypes().includes(type));
