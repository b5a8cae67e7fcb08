import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode } from 'graphql';
import * as operations from '../generated/operations.js';
import { IDEMPOTENCY_KEY_FORMAT } from '../repositories/idempotency-keys.js';
import { PAGE_PARAMS, recordId, type QueryParam, type QueryValues } from './params.js';

export interface RestInput {
  params: Record<string, string>;
  /** The route's declared query parameters (`query` of the row), read and checked (src/rest/params.ts). */
  query: QueryValues;
  /** The parsed JSON object of a POST or PUT. */
  body: Record<string, unknown> | undefined;
  /** A request header by lower-case name (repeated ones joined with ", "). */
  header: (name: string) => string | undefined;
}

/**
 * One row of the route table: which operation file serves the path, how the request becomes its
 * variables, where its result holds the envelope's data, and what the API description says of it.
 * The OpenAPI document (src/rest/openapi/) is generated from these rows and the operations.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  operation: TypedDocumentNode<unknown, Record<string, unknown>>;
  /** One line for the API description. */
  summary: string;
  /** Which API key type may call the route (docs/rest-api.md, Authentication); another type is 403. */
  keyType: 'developer' | 'timesheet' | 'either';
  successStatus: number;
  /** 'json': the body is a JSON object of operation variables. 'cursor': a GET may carry a page cursor. */
  body: 'json' | 'cursor' | 'none';
  /** The query parameters the route accepts; any other is 400. */
  query: readonly QueryParam[];
  /** Request headers the route reads beyond the credentials; `pattern`: the values it accepts (others are 400). */
  headers?: readonly { name: string; description: string; pattern: RegExp }[];
  /** When the route answers 409, if it can. */
  conflict?: string;
  /** Variables bound from the path, query string and headers (body variables are added by the adapter). */
  variables: (input: RestInput) => Record<string, unknown>;
  /** Where the operation's result holds the envelope's data. */
  data: DataShape;
}

/**
 * Where an operation's result holds a route's data: the path of response keys down to it, and
 * what is there. `record`: one object. `list`: a list of objects. `edges`: a connection whose
 * nodes are the data. `page`: the same, with the page parameters its pageInfo gives.
 */
export interface DataShape {
  at: readonly string[];
  shape: 'record' | 'list' | 'edges' | 'page';
}

/** A row as written below; `route` fills in what follows from it. */
interface RouteRow extends Pick<RestRoute, 'summary' | 'keyType' | 'data' | 'headers' | 'conflict'> {
  /** The method and the path, as in `GET /api/external/timesheets/:id`. */
  endpoint: `${RestRoute['method']} /${string}`;
  operation: DocumentNode;
  /** Default 200. */
  successStatus?: number;
  /** 'json' for a body of operation variables; by default none ('cursor' on a page). */
  body?: 'json' | 'none';
  /** Each path parameter and the variable its record id binds. */
  params?: Record<string, string>;
  /** Query filters, each binding the variable of its name. */
  filters?: QueryParam[];
  /** Variables bound otherwise (from a header). */
  variables?: (input: RestInput) => Record<string, unknown>;
}

/** Page size and cursor of a keyset list; paging backwards asks for the last N before the cursor. */
function pageVariables(q: QueryValues): Record<string, unknown> {
  const before = q.get('before');
  return { after: q.get('after'), before, [before !== undefined ? 'last' : 'first']: q.get('pageSize') };
}

/** One route from its row; a new list is one row: its endpoint, operation, summary, key type, filters and data. */
function route(row: RouteRow): RestRoute {
  const { endpoint, params = {}, filters = [], variables, ...described } = row;
  const [method, path] = endpoint.split(' ') as [RestRoute['method'], string];
  // A `page` route takes the page parameters and a cursor body.
  const paged = row.data.shape === 'page';
  return {
    method,
    path,
    ...described,
    operation: row.operation as RestRoute['operation'],
    successStatus: row.successStatus ?? 200,
    body: row.body ?? (paged ? 'cursor' : 'none'),
    query: paged ? [...filters, ...PAGE_PARAMS] : filters,
    variables: (input) => ({
      ...Object.fromEntries(Object.entries(params).map(([param, variable]) => [variable, recordId(input.params[param], param)])),
      ...Object.fromEntries(filters.map(({ name }) => [name, input.query.get(name)])),
      ...(paged ? pageVariables(input.query) : {}),
      ...variables?.(input),
    }),
  };
}

export const routes: RestRoute[] = [
  route({
    endpoint: 'GET /api/external/staffs/:id/licenses',
    operation: operations.StaffLicensesDocument,
    summary: "An employee's security licenses, a page at a time",
    keyType: 'developer',
    params: { id: 'employeeId' },
    filters: [{ name: 'licenseNumber', kind: 'text', description: 'Only the license with exactly this number.' }],
    data: { at: ['staff', 'licenses'], shape: 'page' },
  }),
  route({
    endpoint: 'GET /api/external/timesheets/:id',
    operation: operations.TimesheetDocument,
    summary: 'One timesheet entry',
    keyType: 'timesheet',
    params: { id: 'timesheetId' },
    data: { at: ['timesheet'], shape: 'record' },
  }),
  route({
    endpoint: 'POST /api/webhook/subscriptions',
    operation: operations.CreateSubscriptionDocument,
    summary: 'Subscribe a URI to one event of a subscriber',
    keyType: 'developer',
    successStatus: 201,
    body: 'json',
    headers: [
      {
        name: 'Idempotency-Key',
        description:
          'Makes the create safe to repeat: within 24 hours the same key with the same body returns the first answer and creates nothing; with another body it is 409.',
        pattern: IDEMPOTENCY_KEY_FORMAT,
      },
    ],
    conflict:
      'The subscriber already has MAX_SUBSCRIPTIONS_PER_SUBSCRIBER subscriptions, or the Idempotency-Key was used with a different body in the last 24 hours.',
    // Passed as sent (an empty header too): the resolver checks the key.
    variables: ({ header }) => ({ idempotencyKey: header('idempotency-key') }),
    data: { at: ['createEventSubscription', 'eventSubscription'], shape: 'record' },
  }),
  route({
    endpoint: 'PUT /api/webhook/subscriptions/:id',
    operation: operations.UpdateSubscriptionDocument,
    summary: "Change a subscription's URI or turn it on or off",
    keyType: 'developer',
    body: 'json',
    params: { id: 'subscriptionId' },
    data: { at: ['updateEventSubscription', 'eventSubscription'], shape: 'record' },
  }),
  route({
    endpoint: 'GET /api/webhook/subscribers/:subscriberId/subscriptions',
    operation: operations.SubscriberSubscriptionsDocument,
    summary: "Every subscription of a subscriber",
    keyType: 'developer',
    params: { subscriberId: 'subscriberId' },
    data: { at: ['subscriber', 'subscriptions'], shape: 'edges' },
  }),
  route({
    endpoint: 'GET /api/webhook/events',
    operation: operations.WebhookEventsDocument,
    summary: 'The catalog of webhook events',
    keyType: 'developer',
    data: { at: ['webhookEvents'], shape: 'list' },
  }),
  route({
    endpoint: 'GET /api/webhook/subscriptions/:id/deliveries',
    operation: operations.SubscriptionDeliveriesDocument,
    summary: "A subscription's delivery log, a page at a time",
    keyType: 'developer',
    // Reached by id within the key's company (deleted subscriptions included, so their cancelled
    // deliveries stay visible); a timesheet key is refused (403) as on every developer route.
    params: { id: 'id' },
    data: { at: ['subscriptionDeliveries'], shape: 'page' },
  }),
  route({
    endpoint: 'POST /api/webhook/subscriptions/:id/deliveries/:deliveryId/redeliver',
    operation: operations.RedeliverDocument,
    summary: 'Queue a delivery to be sent again',
    keyType: 'developer',
    successStatus: 202,
    conflict: 'The subscription is not active.',
    params: { id: 'subscriptionId', deliveryId: 'deliveryId' },
    data: { at: ['redeliverWebhook', 'delivery'], shape: 'record' },
  }),
  route({
    endpoint: 'GET /api/external/timesheets',
    operation: operations.TimesheetsDocument,
    summary: "The timesheet entries in the key's scope, filtered, a page at a time",
    keyType: 'timesheet',
    filters: [
      { name: 'siteId', kind: 'id', description: 'Only entries of this site.' },
      { name: 'customerId', kind: 'id', description: "Only entries at this customer's sites." },
      { name: 'employeeId', kind: 'id', description: 'Only entries of this employee.' },
      { name: 'status', kind: 'text', description: 'Only entries with exactly this status.' },
      { name: 'from', kind: 'dateTime', description: 'Only entries scheduled to start at or after this time.' },
      { name: 'to', kind: 'dateTime', description: 'Only entries scheduled to start before this time.' },
      { name: 'modifiedSince', kind: 'dateTime', description: 'Only entries created or changed at or after this time (incremental sync: pass the time noted before the previous read).' },
    ],
    data: { at: ['timesheets'], shape: 'page' },
  }),
  route({
    endpoint: 'GET /api/external/staffs',
    operation: operations.StaffsDocument,
    summary: "The key's company's staff, filtered, a page at a time",
    keyType: 'developer',
    filters: [
      { name: 'staffId', kind: 'text', description: 'Only staff with exactly this staff id.' },
      { name: 'employeeReferenceNumber', kind: 'text', description: 'Only staff with exactly this reference number.' },
      { name: 'email', kind: 'text', description: 'Only staff with exactly this email address (case matters).' },
    ],
    data: { at: ['staffs'], shape: 'page' },
  }),
  route({
    endpoint: 'GET /api/webhook/subscriptions/:id',
    operation: operations.EventSubscriptionDocument,
    summary: 'One subscription',
    keyType: 'developer',
    params: { id: 'subscriptionId' },
    data: { at: ['eventSubscription'], shape: 'record' },
  }),
  route({
    endpoint: 'DELETE /api/webhook/subscriptions/:id',
    operation: operations.DeleteSubscriptionDocument,
    summary: 'Delete a subscription and cancel its pending deliveries',
    keyType: 'developer',
    params: { id: 'subscriptionId' },
    data: { at: ['deleteEventSubscription', 'eventSubscription'], shape: 'record' },
  }),
  route({
    endpoint: 'GET /api/external/customers',
    operation: operations.CustomersDocument,
    summary: "The customers in the key's scope, a page at a time",
    keyType: 'either',
    data: { at: ['customers'], shape: 'page' },
  }),
  route({
    endpoint: 'GET /api/external/sites',
    operation: operations.SitesDocument,
    summary: "The sites in the key's scope, a page at a time",
    keyType: 'either',
    filters: [{ name: 'customerId', kind: 'id', description: "Only this customer's sites." }],
    data: { at: ['sites'], shape: 'page' },
  }),
];
