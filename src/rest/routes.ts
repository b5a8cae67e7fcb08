import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  CreateSubscriptionDocument,
  CustomersDocument,
  SitesDocument,
  DeleteSubscriptionDocument,
  EventSubscriptionDocument,
  RedeliverDocument,
  SubscriptionDeliveriesDocument,
  WebhookEventsDocument,
  StaffLicensesDocument,
  StaffsDocument,
  SubscriberSubscriptionsDocument,
  TimesheetDocument,
  TimesheetsDocument,
  UpdateSubscriptionDocument,
} from '../generated/operations.js';
import type { PageParameters } from './envelope.js';
import { badInput } from '../shared/errors.js';
import { positiveInt, readQuery, recordId } from './params.js';
import { toUtcIso } from '../graphql/types/scalars.js';

export interface RestInput {
  params: Record<string, string>;
  /** URL query parameters, merged with a cursor sent as the body of a GET. */
  query: URLSearchParams;
  /** The parsed JSON object of a POST or PUT. */
  body: Record<string, unknown> | undefined;
  /** A request header by lower-case name (repeated ones joined with ", "). */
  header: (name: string) => string | undefined;
}

/**
 * One row of the route table: which operation file serves the path, how the request
 * becomes its variables, and how its result becomes the envelope's data.
 */
export interface RestRoute<TData = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  operation: TypedDocumentNode<TData, Record<string, unknown>>;
  successStatus: number;
  /** 'json': the body is a JSON object of operation variables. 'cursor': a GET may carry a page cursor. */
  body: 'json' | 'cursor' | 'none';
  /** Variables bound from the path and query string (body variables are added by the adapter). */
  variables: (input: RestInput) => Record<string, unknown>;
  result: (data: TData) => { data: unknown; page?: PageParameters };
}

function route<TData, TVariables>(row: Omit<RestRoute<TData>, 'operation'> & { operation: TypedDocumentNode<TData, TVariables> }): RestRoute {
  return row as unknown as RestRoute;
}

/** A GraphQL page cursor becomes a query-string fragment the caller can append verbatim. */
/** Page size and cursor of a keyset list; paging backwards asks for the last N before the cursor. */
function pageVariables(q: Map<string, string>): Record<string, unknown> {
  const pageSize = q.has('pageSize') ? positiveInt(q.get('pageSize'), 'pageSize') : undefined;
  const before = q.get('before');
  return { after: q.get('after'), before, [before !== undefined ? 'last' : 'first']: pageSize };
}

/** A date-time filter in the query string, refused by name when it is not ISO 8601 with a zone. */
function dateTimeParam(q: Map<string, string>, name: string): string | undefined {
  const value = q.get(name);
  if (value === undefined) return undefined;
  const iso = toUtcIso(value);
  if (iso === null) throw badInput(`${name} must be an ISO 8601 date-time with a time zone`);
  return iso;
}

/** An id filter in the query string, refused by name when it is not a positive integer. */
function idParam(q: Map<string, string>, name: string): number | undefined {
  return q.has(name) ? positiveInt(q.get(name), name) : undefined;
}

function pageParameters(pageInfo: {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}): PageParameters {
  return {
    nextPageParameter: pageInfo.hasNextPage && pageInfo.endCursor ? `after=${pageInfo.endCursor}` : undefined,
    prevPageParameter: pageInfo.hasPreviousPage && pageInfo.startCursor ? `before=${pageInfo.startCursor}` : undefined,
  };
}

export const routes: RestRoute[] = [
  route({
    method: 'GET',
    path: '/api/external/staffs/:id/licenses',
    operation: StaffLicensesDocument,
    successStatus: 200,
    body: 'cursor',
    variables: ({ params, query }) => {
      const q = readQuery(query, ['licenseNumber', 'pageSize', 'after', 'before']);
      const pageSize = q.has('pageSize') ? positiveInt(q.get('pageSize'), 'pageSize') : undefined;
      const before = q.get('before');
      return {
        employeeId: recordId(params.id, 'id'),
        licenseNumber: q.get('licenseNumber'),
        after: q.get('after'),
        before,
        // Paging backwards asks for the last N before the cursor.
        [before !== undefined ? 'last' : 'first']: pageSize,
      };
    },
    result: (data) => {
      const licenses = data.staff?.licenses;
      if (!licenses) return { data: [] };
      return { data: licenses.edges.map((edge) => edge.node), page: pageParameters(licenses.pageInfo) };
    },
  }),
  route({
    method: 'GET',
    path: '/api/external/timesheets/:id',
    operation: TimesheetDocument,
    successStatus: 200,
    body: 'none',
    variables: ({ params, query }) => {
      readQuery(query, []);
      return { timesheetId: recordId(params.id, 'id') };
    },
    result: (data) => ({ data: data.timesheet }),
  }),
  route({
    method: 'POST',
    path: '/api/webhook/subscriptions',
    operation: CreateSubscriptionDocument,
    successStatus: 201,
    body: 'json',
    variables: ({ query, header }) => {
      readQuery(query, []);
      // Passed as sent (an empty header too): the resolver checks the key.
      return { idempotencyKey: header('idempotency-key') };
    },
    result: (data) => ({ data: data.createEventSubscription?.eventSubscription }),
  }),
  route({
    method: 'PUT',
    path: '/api/webhook/subscriptions/:id',
    operation: UpdateSubscriptionDocument,
    successStatus: 200,
    body: 'json',
    variables: ({ params, query }) => {
      readQuery(query, []);
      return { subscriptionId: recordId(params.id, 'id') };
    },
    result: (data) => ({ data: data.updateEventSubscription?.eventSubscription }),
  }),
  route({
    method: 'GET',
    path: '/api/webhook/subscribers/:subscriberId/subscriptions',
    operation: SubscriberSubscriptionsDocument,
    successStatus: 200,
    body: 'none',
    variables: ({ params, query }) => {
      readQuery(query, []);
      return { subscriberId: recordId(params.subscriberId, 'subscriberId') };
    },
    result: (data) => ({ data: data.subscriber?.subscriptions.edges.map((edge) => edge.node) ?? [] }),
  }),
  route({
    method: 'GET',
    path: '/api/webhook/events',
    operation: WebhookEventsDocument,
    successStatus: 200,
    body: 'none',
    variables: ({ query }) => {
      readQuery(query, []);
      return {};
    },
    result: (data) => ({ data: data.webhookEvents }),
  }),
  route({
    method: 'GET',
    path: '/api/webhook/subscriptions/:id/deliveries',
    operation: SubscriptionDeliveriesDocument,
    successStatus: 200,
    body: 'cursor',
    variables: ({ params, query }) => {
      const q = readQuery(query, ['pageSize', 'after', 'before']);
      const pageSize = q.has('pageSize') ? positiveInt(q.get('pageSize'), 'pageSize') : undefined;
      const before = q.get('before');
      return {
        id: recordId(params.id, 'id'),
        after: q.get('after'),
        before,
        [before !== undefined ? 'last' : 'first']: pageSize,
      };
    },
    result: (data) => {
      const deliveries = data.subscriptionDeliveries;
      if (!deliveries) return { data: [] };
      return { data: deliveries.edges.map((edge) => edge.node), page: pageParameters(deliveries.pageInfo) };
    },
  }),
  route({
    method: 'POST',
    path: '/api/webhook/subscriptions/:id/deliveries/:deliveryId/redeliver',
    operation: RedeliverDocument,
    successStatus: 202,
    body: 'none',
    variables: ({ params, query }) => {
      readQuery(query, []);
      return { subscriptionId: recordId(params.id, 'id'), deliveryId: recordId(params.deliveryId, 'deliveryId') };
    },
    result: (data) => ({ data: data.redeliverWebhook?.delivery }),
  }),
  route({
    method: 'GET',
    path: '/api/external/timesheets',
    operation: TimesheetsDocument,
    successStatus: 200,
    body: 'cursor',
    variables: ({ query }) => {
      const q = readQuery(query, ['siteId', 'customerId', 'employeeId', 'status', 'from', 'to', 'modifiedSince', 'pageSize', 'after', 'before']);
      return {
        siteId: idParam(q, 'siteId'),
        customerId: idParam(q, 'customerId'),
        employeeId: idParam(q, 'employeeId'),
        status: q.get('status'),
        from: dateTimeParam(q, 'from'),
        to: dateTimeParam(q, 'to'),
        modifiedSince: dateTimeParam(q, 'modifiedSince'),
        ...pageVariables(q),
      };
    },
    result: (data) => ({
      data: data.timesheets.edges.map((edge) => edge.node),
      page: pageParameters(data.timesheets.pageInfo),
    }),
  }),
  route({
    method: 'GET',
    path: '/api/external/staffs',
    operation: StaffsDocument,
    successStatus: 200,
    body: 'cursor',
    variables: ({ query }) => {
      const q = readQuery(query, ['staffId', 'employeeReferenceNumber', 'email', 'pageSize', 'after', 'before']);
      return {
        staffId: q.get('staffId'),
        employeeReferenceNumber: q.get('employeeReferenceNumber'),
        email: q.get('email'),
        ...pageVariables(q),
      };
    },
    result: (data) => ({
      data: data.staffs.edges.map((edge) => edge.node),
      page: pageParameters(data.staffs.pageInfo),
    }),
  }),
  route({
    method: 'GET',
    path: '/api/webhook/subscriptions/:id',
    operation: EventSubscriptionDocument,
    successStatus: 200,
    body: 'none',
    variables: ({ params, query }) => {
      readQuery(query, []);
      return { subscriptionId: recordId(params.id, 'id') };
    },
    result: (data) => ({ data: data.eventSubscription }),
  }),
  route({
    method: 'DELETE',
    path: '/api/webhook/subscriptions/:id',
    operation: DeleteSubscriptionDocument,
    successStatus: 200,
    body: 'none',
    variables: ({ params, query }) => {
      readQuery(query, []);
      return { subscriptionId: recordId(params.id, 'id') };
    },
    result: (data) => ({ data: data.deleteEventSubscription?.eventSubscription }),
  }),
  route({
    method: 'GET',
    path: '/api/external/customers',
    operation: CustomersDocument,
    successStatus: 200,
    body: 'cursor',
    variables: ({ query }) => {
      const q = readQuery(query, ['pageSize', 'after', 'before']);
      const pageSize = q.has('pageSize') ? positiveInt(q.get('pageSize'), 'pageSize') : undefined;
      const before = q.get('before');
      return { after: q.get('after'), before, [before !== undefined ? 'last' : 'first']: pageSize };
    },
    result: (data) => ({ data: data.customers.edges.map((edge) => edge.node), page: pageParameters(data.customers.pageInfo) }),
  }),
  route({
    method: 'GET',
    path: '/api/external/sites',
    operation: SitesDocument,
    successStatus: 200,
    body: 'cursor',
    variables: ({ query }) => {
      const q = readQuery(query, ['customerId', 'pageSize', 'after', 'before']);
      const pageSize = q.has('pageSize') ? positiveInt(q.get('pageSize'), 'pageSize') : undefined;
      const before = q.get('before');
      return {
        customerId: q.has('customerId') ? positiveInt(q.get('customerId'), 'customerId') : undefined,
        after: q.get('after'),
        before,
        [before !== undefined ? 'last' : 'first']: pageSize,
      };
    },
    result: (data) => ({ data: data.sites.edges.map((edge) => edge.node), page: pageParameters(data.sites.pageInfo) }),
  }),
];
