import fc from 'fast-check';
import { print } from 'graphql';
import { operationOf } from '../../src/rest/adapter.js';
import { routes } from '../../src/rest/routes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope } from '../support/envelope.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { prepareRouteRecords, type CompanyRecords } from '../support/route-fixtures.js';
import { anyBody, anyContentType, anyId, anyQuery, PATH_TEMPLATES, snapshot } from './fuzz-support.js';

/**
 * Property-based fuzzing of every REST route and /graphql: whatever arrives, the answer is a
 * well-formed envelope (or GraphQL JSON), never a 5xx, and a refused write changes nothing.
 * FUZZ_SEED reproduces a run; the case counts add up to more than 2,000 per run.
 */
const REST_RUNS = 1500;
const GRAPHQL_RUNS = 700;
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

describe('fuzzing', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let records: CompanyRecords[];
  beforeAll(async () => {
    t = await startTestApp();
    tokens.developer = await t.token({ type: 'developer', companyId: 1 });
    tokens.timesheet = await t.token({ type: 'timesheet', companyId: 1, siteIds: [100] });
    tokens.foreign = await t.token({ type: 'developer', companyId: 2 });
    // A subscription and a delivery of each company, so PUTs, delivery logs and redeliveries have something to aim at.
    const { own, foreign } = await prepareRouteRecords(t);
    records = [own, foreign];
  });
  afterAll(() => t.close());

  const anyAuth = fc.constantFrom('developer', 'timesheet', 'foreign', 'garbage', 'none');
  const anySubKey = fc.constantFrom(SUB_KEY, SUB_KEY, 'wrong', '');

  function headersFor(auth: string, subKey: string, contentType: string | undefined, extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...extra };
    if (subKey !== '') headers['external-gh-apim-sub-key'] = subKey;
    if (auth === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
    else if (auth !== 'none') headers.authorization = `Bearer ${tokens[auth]}`;
    if (contentType) headers['content-type'] = contentType;
    return headers;
  }

  const anyExtraHeaders = fc.dictionary(
    fc.constantFrom('x-request-id', 'accept', 'x-forwarded-for', 'accept-encoding', 'x-junk'),
    fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
    { maxKeys: 3 },
  );

  it(`every REST route answers ${REST_RUNS} random requests with a well-formed envelope, never 5xx, and refused writes change nothing`, async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATH_TEMPLATES),
        fc.array(anyId(records), { minLength: 2, maxLength: 2 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        anyQuery,
        anyBody,
        anyContentType,
        anyAuth,
        anySubKey,
        anyExtraHeaders,
        async (template, ids, method, query, body, contentType, auth, subKey, extra) => {
          cases++;
          let n = 0;
          const path = template.replace(/\{id\}/g, () => ids[n++ % 2] ?? '1') + query;
          const writes = method !== 'GET';
          const before = writes ? await snapshot(t) : '';
          const res = await t.request(method, path, {
            subKey: null,
            headers: headersFor(auth, subKey, contentType, extra),
            ...(body !== undefined && method !== 'GET' ? { rawBody: body } : {}),
          });
          expect(res.status, `${method} ${path} ${body ?? ''}`).toBeLessThan(500);
          expect(res.headers.get('x-request-id')).toBeTruthy();
          expectEnvelope(res, res.status);
          if (writes && res.status >= 400) expect(await snapshot(t), `${method} ${path} wrote despite ${res.status}`).toBe(before);
        },
      ),
      { numRuns: REST_RUNS, ...(seed !== undefined ? { seed } : {}) },
    );
    expect(cases).toBeGreaterThanOrEqual(REST_RUNS);
  }, 120_000);

  const FIELDS = {
    staff: ['firstName', 'lastName', 'staffId', 'email', 'licenses(first: $n) { edges { node { licenseNumber expiryDate } } pageInfo { endCursor } }'],
    timesheet: ['timesheetId', 'status', 'customerName', 'notes', 'clockInCoordinates'],
    subscriber: ['name', 'subscriptions { edges { node { id uri isActive } } }'],
  } as const;

  const anyDocument = fc.oneof(
    fc
      .tuple(fc.constantFrom('staff(employeeId: $id)', 'timesheet(timesheetId: $id)', 'subscriber(subscriberId: $id)'), fc.nat(4))
      .map(([root, k]) => {
        const key = root.split('(')[0] as keyof typeof FIELDS;
        const fields = FIELDS[key].slice(0, k + 1).join(' ');
        return `query Q($id: Int!, $n: Int) { ${root} { ${fields} } }`;
      }),
    fc.constantFrom(
      'query Q($id: ID!) { node(id: $id) { id } }',
      'query Q($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      'mutation M($input: CreateEventSubscriptionInput!) { createEventSubscription(input: $input) { eventSubscription { id } } }',
      'mutation M($input: UpdateEventSubscriptionInput!) { updateEventSubscription(input: $input) { eventSubscription { id } } }',
      'mutation M($input: RedeliverWebhookInput!) { redeliverWebhook(input: $input) { __typename } }',
      '{ webhookEvents { event eventType } }',
      '{ __schema { types { name } } }',
      'subscription { events { type } }',
      '{ staff(employeeId: 1001) { ...F } } fragment F on Staff { ...F }',
      '{ a: staff(employeeId: 1001) { firstName } a: timesheet(timesheetId: 1) { status } }',
    ),
    fc.string({ maxLength: 120 }),
    fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => `{ ${s} }`),
  );

  const anyVariableValue = fc.oneof(
    fc.integer(),
    fc.constantFrom(1001, 9001, 301, 10, 100, 2 ** 31, 1e300, 'Pending', '2026-11-01T00:00:00Z'),
    fc.string({ maxLength: 20 }),
    fc.constant(null),
  );

  const anyVariables = fc.oneof(
    fc.constant(undefined),
    fc.record(
      {
        id: fc.oneof(fc.integer(), fc.constantFrom(1001, 9001, 301, 2 ** 31, 1e300), fc.string({ maxLength: 20 }), fc.constant(null)),
        n: fc.oneof(fc.integer({ min: -5, max: 500 }), fc.constant(null), fc.string({ maxLength: 5 })),
        ids: fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }),
        input: fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue({ maxDepth: 3 }),
  );

  /** The operation of every route, with its own variables set to junk (or left out). */
  const anyRouteOperation = fc.constantFrom(...routes).chain((route) =>
    fc.tuple(
      fc.constant(print(route.operation)),
      fc.record(
        Object.fromEntries((operationOf(route).variableDefinitions ?? []).map((v) => [v.variable.name.value, anyVariableValue])),
        { requiredKeys: [] },
      ) as fc.Arbitrary<unknown>,
    ),
  );

  it(`/graphql answers ${GRAPHQL_RUNS} random documents, variables and bodies with GraphQL JSON, never 5xx`, async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.tuple(anyDocument, anyVariables), anyRouteOperation),
        fc.constantFrom('json', 'json', 'json', 'raw', 'get', 'batch'),
        anyBody,
        fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/graphql', undefined),
        anyAuth,
        async ([query, variables], shape, rawBody, contentType, auth) => {
          cases++;
          const before = await snapshot(t);
          const headers = headersFor(auth, SUB_KEY, contentType, { accept: 'application/graphql-response+json, application/json' });
          let res;
          if (shape === 'get') {
            const qs = new URLSearchParams({ query, ...(variables !== undefined ? { variables: JSON.stringify(variables) } : {}) });
            res = await t.request('GET', `/graphql?${qs}`, { subKey: null, headers });
          } else {
            const payload = { query, variables };
            const text = shape === 'raw' ? (rawBody ?? '') : JSON.stringify(shape === 'batch' ? [payload, payload] : payload);
            res = await t.request('POST', '/graphql', { subKey: null, headers, rawBody: text });
          }
          expect(res.status, `${shape} ${query}`).toBeLessThan(500);
          // A subscription asked for as JSON: yoga's content negotiation answers 406 and names the
          // media type it streams in the accept header, with no body. Nothing ran; nothing to check.
          if (res.status === 406) {
            expect(res.headers.get('accept')).toMatch(/text\/event-stream/);
            return;
          }
          expect(res.headers.get('content-type') ?? '').toMatch(/json/);
          const bodies = Array.isArray(res.body) ? res.body : [res.body];
          for (const body of bodies) {
            expect(body, res.text.slice(0, 200)).toBeTypeOf('object');
            expect('data' in body || Array.isArray(body.errors), res.text.slice(0, 200)).toBe(true);
            for (const error of body.errors ?? []) {
              expect(error.message).toBeTypeOf('string');
              expect(error.extensions?.code, res.text.slice(0, 200)).not.toBe('INTERNAL_SERVER_ERROR');
            }
          }
          if ((res.body?.errors ?? []).length > 0 || res.status >= 400) expect(await snapshot(t)).toBe(before);
        },
      ),
      { numRuns: GRAPHQL_RUNS, ...(seed !== undefined ? { seed } : {}) },
    );
    expect(cases).toBeGreaterThanOrEqual(GRAPHQL_RUNS);
  }, 120_000);
});
