import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, globalId } from './helpers.js';

// `staff { licenses }` alone reads the license page before (and, when the page has licenses,
// instead of) the staff lookup. Selecting one more staff field turns that off, so each request
// here is sent both ways and must get the same answer, errors included.

const PAGE = (staffFields: string, args: string) =>
  `staff(employeeId: $employeeId) { ${staffFields} licenses(${args}) { edges { cursor node { securityLicenseId licenseNumber } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

function query(extra: string, body: (staffFields: string) => string): string {
  return `query ($employeeId: Int!, $first: Int, $last: Int, $after: String, $before: String, $licenseNumber: String) { ${body(extra)} }`;
}

const ARGS = 'first: $first, last: $last, after: $after, before: $before, licenseNumber: $licenseNumber';

function withoutEmployeeId(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmployeeId);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'employeeId')
      .map(([key, inner]) => [key, withoutEmployeeId(inner)]),
  );
}

describe('GraphQL: the license page read before the staff lookup', () => {
  let t: TestApp;
  let token: string;
  let cursor: string;
  let lastCursor: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'developer', companyId: 1 });
    const data = expectData(await t.graphql(token, query('', (s) => PAGE(s, ARGS)), { employeeId: 1001, first: 10 }));
    cursor = data.staff.licenses.pageInfo.endCursor;
    const last = expectData(await t.graphql(token, query('', (s) => PAGE(s, ARGS)), { employeeId: 1001, last: 1 }));
    lastCursor = last.staff.licenses.pageInfo.endCursor;
  });
  afterAll(() => t.close());

  const cases: [string, (staffFields: string) => string, () => Record<string, unknown>][] = [
    ['a first page', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, first: 5 })],
    ['the default page size', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001 })],
    ['a page after a cursor', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, first: 5, after: cursor })],
    ['a page before a cursor', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, last: 3, before: cursor })],
    ['the empty page after the last license', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, after: lastCursor })],
    ['a license number', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, licenseNumber: 'NSW-0003' })],
    ['a license number nobody holds', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, licenseNumber: 'NOBODY' })],
    ['a null license number with a cursor', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, after: cursor, licenseNumber: null })],
    ['another filter than the cursor’s', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, after: cursor, licenseNumber: 'NSW-0003' })],
    ['a cursor of another staff member', (s) => PAGE(s, ARGS), () => ({ employeeId: 1002, after: cursor })],
    ['a malformed cursor', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, after: 'not-a-cursor' })],
    ['an oversized page', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, first: 101 })],
    ['first and last together', (s) => PAGE(s, ARGS), () => ({ employeeId: 1001, first: 1, last: 1 })],
    ['an unknown staff member', (s) => PAGE(s, ARGS), () => ({ employeeId: 9999 })],
    ['a staff member of another company', (s) => PAGE(s, ARGS), () => ({ employeeId: 2001 })],
    [
      'the same staff member twice with different pages',
      (s) => `a: ${PAGE(s, 'first: 2')} b: ${PAGE(s, 'first: 3, after: $after')}`,
      () => ({ employeeId: 1001, after: cursor }),
    ],
    [
      'the staff member as a node as well',
      (s) => `${PAGE(s, ARGS)} node(id: "${globalId('Staff', 1001)}") { ... on Staff { firstName email } }`,
      () => ({ employeeId: 1001, first: 2 }),
    ],
  ];

  it.each(cases)('%s: the same answer either way', async (_what, body, variables) => {
    // Spaces as long as the extra field, so error locations line up.
    const pageFirst = await t.graphql(token, query(' '.repeat('employeeId'.length), body), variables());
    const lookupFirst = await t.graphql(token, query('employeeId', body), variables());
    expect(pageFirst.status).toBe(lookupFirst.status);
    expect(pageFirst.body).toEqual(withoutEmployeeId(lookupFirst.body));
  });

  it('a timesheet key is refused before any page is read', async () => {
    const timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
    const { result, statements } = await t.countStatements(() =>
      t.graphql(timesheetKey, query('', (s) => PAGE(s, ARGS)), { employeeId: 1001 }),
    );
    expect(result.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(result.body.data).toEqual({ staff: null });
    expect(statements).toEqual([]);
  });
});
