import { getOperationAST, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executorOf, type Execute } from '../../src/graphql/execute.js';
import { compilable } from '../../src/graphql/jit.js';
import { schema } from '../../src/graphql/schema.js';
import { createYogaApp } from '../../src/graphql/yoga.js';
import { routes } from '../../src/rest/routes.js';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { PAYLOAD_DOCUMENTS } from '../../src/workers/payload-renderer.js';
import type { Principal } from '../../src/shared/principal.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every REST operation, run in-process with a corpus of variables through the pipeline with the
 * graphql-jit plugin (src/graphql/jit.ts) and without it: the results, data and errors, must be
 * the same. test/graphql/executor-equality.test.ts does the same for requests to /graphql.
 */

const operations = [...new Set(routes.map((route) => route.operation as DocumentNode))];
const operationOf = (document: DocumentNode) => getOperationAST(document) as OperationDefinitionNode;

const principals: Record<string, Principal> = {
  developer: { keyId: 1, keyType: 'developer', companyId: 1, customerIds: [], siteIds: [] },
  timesheet: { keyId: 2, keyType: 'timesheet', companyId: 1, customerIds: [], siteIds: [] },
  'scoped timesheet': { keyId: 3, keyType: 'timesheet', companyId: 1, customerIds: [10], siteIds: [101] },
  'other company': { keyId: 4, keyType: 'developer', companyId: 2, customerIds: [], siteIds: [] },
  'unknown company': { keyId: 5, keyType: 'timesheet', companyId: 99, customerIds: [], siteIds: [] },
};

/** Values tried for each variable name (each alone, with the required ones at their first value). */
const INTS = [1, 0, -1, 2_147_483_647];
const candidates: Record<string, unknown[]> = {
  employeeId: [1001, 1002, 2001, ...INTS],
  timesheetId: [9001, 9002, 9003, 9004, ...INTS],
  subscriptionId: [0, 1, 2, 3, -1],
  id: [1, 2, 3, 0],
  subscriberId: [301, 302, 303, 401, 0],
  customerId: [10, 11, 20, 0],
  siteId: [100, 101, 110, 200, 0],
  licenseNumber: ['NSW-0001', 'VIC-0001', 'QLD-0001', '', 'NSW-%', "x' OR 1=1 --", 'é漢'],
  staffId: ['S-1001', 'S-2001', '', 'nobody'],
  employeeReferenceNumber: ['REF-1001', 'REF-2001', ''],
  email: ['alex@example.com', 'jo@example.com', 'ALEX@EXAMPLE.COM', ''],
  status: ['Pending', 'Approved', 'nonsense', ''],
  from: ['2026-11-01T00:00:00.000Z', '2030-01-01T00:00:00Z', 'not a date'],
  to: ['2026-11-30T00:00:00.000Z', '2000-01-01T00:00:00Z'],
  modifiedSince: ['2000-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z'],
  first: [1, 2, 10, 50, 0, -1, 1000],
  last: [1, 3, 50, 0, -5],
  after: ['not-a-cursor', '', 'WyJsaWNlbnNlIl0.AAAA'],
  before: ['not-a-cursor', ''],
};

/** Cursors the first page of each operation hands out, fed back as after/before. */
function cursorsOf(result: ExecutionResult): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if ((key === 'endCursor' || key === 'startCursor') && typeof inner === 'string') found.push(inner);
        else walk(inner);
      }
    }
  };
  walk(result.data);
  return found;
}

function corpusOf(document: DocumentNode): Record<string, unknown>[] {
  const definitions = operationOf(document).variableDefinitions ?? [];
  const required = definitions.filter((d) => d.type.kind === 'NonNullType').map((d) => d.variable.name.value);
  const base = Object.fromEntries(required.map((name) => [name, candidates[name]?.[0] ?? 1]));
  const corpus: Record<string, unknown>[] = [base];
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    for (const value of candidates[name] ?? []) corpus.push({ ...base, [name]: value });
  }
  // Pages and filters together, as the REST routes send them.
  if (definitions.some((d) => d.variable.name.value === 'first')) {
    corpus.push(
      { ...base, first: 2, licenseNumber: 'NSW-0002' },
      { ...base, first: 2, staffId: 'S-1001' },
      { ...base, first: 2, customerId: 10 },
      { ...base, first: 2, siteId: 100, status: 'Pending' },
      { ...base, last: 2, status: 'Pending', siteId: 100 },
    );
  }
  return corpus.map((variables) =>
    Object.fromEntries(Object.entries(variables).filter(([name]) => definitions.some((d) => d.variable.name.value === name))),
  );
}

/** A result as a caller would see it: errors as their JSON form (message, path, extensions). */

const asJson = (result: ExecutionResult) => JSON.parse(JSON.stringify({ data: result.data, errors: result.errors }));

describe('the compiled executor gives the standard executor’s results', () => {
  let t: TestApp;
  let compiled: Execute;
  let standard: Execute;
  beforeAll(async () => {
    t = await startTestApp();
    const token = await t.token({ type: 'developer', companyId: 1 });
    // One subscription with a delivery log, so the subscription reads have rows to return.
    const created = await t.request('POST', '/api/webhook/subscriptions', {
      token,
      body: { subscriberId: 302, uri: 'https://receiver.example.com/hooks', event: 'license', eventType: 'expiring' },
    });
    expect(created.status).toBe(201);
    const limits = t.app.config.limits.graphql;
    compiled = executorOf(createYogaApp(t.app.services, { limits, jit: true }));
    standard = executorOf(createYogaApp(t.app.services, { limits, jit: false }));
  });
  afterAll(() => t.close());

  const reads = operations.filter((document) => operationOf(document).operation === 'query');

  it('has values to try for every variable of every read operation of the route table', () => {
    const missing = reads.flatMap((document) =>
      (operationOf(document).variableDefinitions ?? [])
        .map((d) => d.variable.name.value)
        .filter((name) => candidates[name] === undefined)
        .map((name) => `${operationOf(document).name?.value}: $${name}`),
    );
    expect(reads.length).toBeGreaterThan(0);
    expect(missing, 'add values for these to `candidates`').toEqual([]);
    // graphql-jit runs the hot single-record and license-page reads (reads with input-object filters stay on graphql-js).
    const compiledReads = reads.filter((d) => compilable(schema, d, operationOf(d))).map((d) => operationOf(d).name?.value);
    expect(compiledReads).toEqual(expect.arrayContaining(['Timesheet', 'StaffLicenses']));
  });

  for (const document of reads) {
    const name = operationOf(document).name?.value ?? '';
    it(`${name}: identical data and errors for every principal and variable set`, async () => {
      let compared = 0;
      for (const [who, principal] of Object.entries(principals)) {
        const corpus = corpusOf(document);
        const first = await standard({ document, variables: corpus[0], principal, requestId: 'req-1' });
        for (const cursor of cursorsOf(first)) corpus.push({ ...corpus[0], after: cursor }, { ...corpus[0], before: cursor, last: 1 });
        // A cursor issued under a filter, sent back with the filter and without it.
        for (const filtered of corpus.filter((v) => v.first === 2 && Object.keys(v).length > 1 + Object.keys(corpus[0]!).length)) {
          const page = await standard({ document, variables: filtered, principal });
          for (const cursor of cursorsOf(page)) corpus.push({ ...filtered, after: cursor }, { ...corpus[0], after: cursor });
        }
        for (const variables of corpus) {
          const request = { document, variables, principal, requestId: 'req-1' };
          const expected = asJson(await standard(request));
          const actual = asJson(await compiled(request));
          expect(actual, `${name} as ${who} with ${JSON.stringify(variables)}`).toEqual(expected);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }

  it('masks an unexpected failure and tags it with the request id, as the standard executor does', async () => {
    const [document] = reads.filter((d) => operationOf(d).name?.value === 'Timesheet');
    const principal = principals.timesheet!;
    const db = t.app.services.db;
    // A query the database cannot answer: the table is renamed away for the two calls.
    await db.schema.renameTable('timesheets', 'timesheets_away');
    try {
      const request = { document: document!, variables: { timesheetId: 9001 }, principal, requestId: 'req-42' };
      const expected = asJson(await standard(request));
      const actual = asJson(await compiled(request));
      expect(actual).toEqual(expected);
      expect(actual.errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId: 'req-42' });
      expect(JSON.stringify(actual)).not.toContain('timesheets');
    } finally {
      await db.schema.renameTable('timesheets_away', 'timesheets');
    }
  });

  it('renders webhook payloads (src/workers/payload-renderer.ts) with the standard executor’s results', async () => {
    const payloadsCompiled = compiled;
    const payloadsStandard = standard;
    const [timesheet, license] = PAYLOAD_DOCUMENTS;
    // The principal a payload is rendered under: the record owner's company, no narrower scope.
    const system = (keyType: Principal['keyType'], companyId: number): Principal => ({ keyId: 0, keyType, companyId, customerIds: [], siteIds: [] });
    let withData = 0;
    for (const companyId of [1, 2, 99]) {
      const requests = [
        ...[9001, 9002, 9003, 9004, 0, -1].map((timesheetId) => ({ document: timesheet!, variables: { timesheetId }, principal: system('timesheet', companyId) })),
        ...[0, 1, 50001, 50002, 50045, 50046, 60001, 70001].map((id) => ({ document: license!, variables: { id: encodeGlobalID('License', id) }, principal: system('developer', companyId) })),
        { document: license!, variables: { id: 'not-an-id' }, principal: system('developer', companyId) },
      ];
      for (const request of requests) {
        const expected = asJson(await payloadsStandard(request));
        expect(asJson(await payloadsCompiled(request)), JSON.stringify(request.variables)).toEqual(expected);
        if (expected.data && Object.values(expected.data).some((value) => value !== null)) withData++;
      }
    }
    expect(withData).toBeGreaterThanOrEqual(8);
  });

  it('leaves mutations and documents outside the route table to the standard executor', async () => {
    const mutation = operations.find((d) => operationOf(d).name?.value === 'DeleteSubscription')!;
    const request = { document: mutation, variables: { subscriptionId: 999_999 }, principal: principals.developer! };
    expect(asJson(await compiled(request))).toEqual(asJson(await standard(request)));
  });
});
