import { encodeGlobalID } from '@pothos/plugin-relay';
import { expect } from 'vitest';
import { LICENSE_INFO_FIELDS, LICENSE_SCALAR_FIELDS } from '../support/contract-fields.js';

/**
 * Small assertions for GraphQL responses, shared by test/graphql, test/tenancy, test/parity
 * and test/performance. The REST envelope has its own helper in test/support/envelope.ts.
 */

export interface GraphQLErrorItem {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string };
}

export interface GraphQLBody {
  data?: any;
  errors?: GraphQLErrorItem[];
}

/** The Relay global id of a record of a type implementing Node, as the schema's node fields expect it. */
export function globalId(typename: string, id: number): string {
  return encodeGlobalID(typename, id);
}

/** A successful response: HTTP 200, no errors, and the data object. */
export function expectData(res: { status: number; body: GraphQLBody }): any {
  expect(res.body?.errors, `unexpected errors: ${JSON.stringify(res.body?.errors)}`).toBeUndefined();
  expect(res.status).toBe(200);
  expect(res.body.data).toBeTypeOf('object');
  return res.body.data;
}

/** The error codes of a response, in order. */
export function errorCodes(body: GraphQLBody): (string | undefined)[] {
  return (body.errors ?? []).map((e) => e.extensions?.code);
}

/**
 * A field-level failure: HTTP 200 (GraphQL reports it in the body), every error carries `code`,
 * and the error at `path` exists. Returns the data object.
 */
export function expectFieldError(
  res: { status: number; body: GraphQLBody },
  code: string,
  path: (string | number)[],
): any {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const errors = res.body.errors ?? [];
  expect(errors.length, `expected a ${code} error at ${path.join('.')}`).toBeGreaterThan(0);
  const atPath = errors.filter((e) => JSON.stringify(e.path) === JSON.stringify(path));
  expect(atPath.map((e) => e.extensions?.code), `errors: ${JSON.stringify(errors)}`).toEqual([code]);
  return res.body.data;
}

/** The whole request refused before execution: HTTP 401 and UNAUTHENTICATED, no data. */
export function expectUnauthenticated(res: { status: number; body: GraphQLBody }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors?.length).toBeGreaterThan(0);
  expect(errorCodes(res.body).every((c) => c === 'UNAUTHENTICATED'), JSON.stringify(res.body)).toBe(true);
}

/** A GraphQL selection of every field of a security license (docs/rest-api.md), named as REST names them. */
export const LICENSE_SELECTION = `${LICENSE_SCALAR_FIELDS.join(' ')} employeeSecurityLicenseInfo { ${LICENSE_INFO_FIELDS.join(' ')} }`;

/** A GraphQL selection of every field of an event subscription (docs/rest-api.md); the REST `id` is `subscriptionId`. */
export const SUBSCRIPTION_SELECTION =
  'id: subscriptionId webhookSubscriberEventFilterId uri isActive event eventType createdDateTime modifiedDateTime';

