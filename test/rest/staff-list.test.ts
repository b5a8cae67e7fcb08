import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure, type Envelope } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, expectFieldError } from '../graphql/helpers.js';
import { rawRequest } from './http.js';

const PATH = '/api/external/staffs';
const STAFF_FIELDS = ['employeeId', 'staffId', 'firstName', 'lastName', 'employeeReferenceNumber', 'email', 'mobile', 'subcontractorCompany'];
/** Seeded 1001 and 1002 plus 25 more; every third of the added shares one email address. */
const ADDED = Array.from({ length: 25 }, (_, i) => 1101 + i);
const COMPANY_1 = [1001, 1002, ...ADDED];
const SHARED_EMAIL = ADDED.filter((_, i) => i % 3 === 0);

function ids(env: Envelope): number[] {
  return (env.data as { employeeId: number }[]).map((s) => s.employeeId);
}

describe('GET /api/external/staffs and Query.staffs', () => {
  let t: TestApp;
  let developer: string;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.db.batchInsert(
      'staff',
      ADDED.map((id, i) => ({
        id,
        company_id: 1,
        staff_id: `S-${id}`,
        first_name: `First${id}`,
        last_name: `Last${id}`,
        employee_reference_number: `REF-${id}`,
        email: i % 3 === 0 ? 'roster@example.com' : `staff${id}@example.com`,
        mobile: null,
        subcontractor_company: i % 2 === 0 ? 'Sub Co' : null,
      })),
      50,
    );
    developer = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  const get = (query: string, token = developer) => t.request('GET', `${PATH}${query}`, { token });

  async function walk(query: string): Promise<number[]> {
    const seen: number[] = [];
    let env = expectEnvelope(await get(query), 200);
    seen.push(...ids(env));
    for (let guard = 0; env.nextPageParameter && guard < 50; guard++) {
      env = expectEnvelope(await get(`${query === '' ? '?' : `${query}&`}${env.nextPageParameter}`), 200);
      seen.push(...ids(env));
    }
    return seen;
  }

  it('lists the company’s staff, 20 to a page, with exactly the staff fields', async () => {
    const env = expectEnvelope(await get(''), 200);
    expect(env.count).toBe(20);
    expect(ids(env)).toEqual(COMPANY_1.slice(0, 20));
    expect(Object.keys(env.data[0]).sort()).toEqual([...STAFF_FIELDS].sort());
    expect(env.data[0]).toEqual({
      employeeId: 1001,
      staffId: 'S-1001',
      firstName: 'Alex',
      lastName: 'Nguyen',
      employeeReferenceNumber: 'REF-1001',
      email: 'alex@example.com',
      mobile: '+61400000000',
      subcontractorCompany: null,
    });
    expect(await walk('?pageSize=6')).toEqual(COMPANY_1);
  });

  it('pages back, with the cursor in the query string or as the GET body', async () => {
    const first = expectEnvelope(await get('?pageSize=5'), 200);
    const second = expectEnvelope(await rawRequest(t, 'GET', PATH, { token: developer, body: first.nextPageParameter! }), 200);
    expect(ids(second)).toEqual(COMPANY_1.slice(5, 10));
    const back = expectEnvelope(await get(`?${second.prevPageParameter}`), 200);
    expect(ids(back)).toEqual(COMPANY_1.slice(0, 5));
    expect(back.prevPageParameter).toBeUndefined();
  });

  it('filters by staffId, employeeReferenceNumber and email, alone and combined', async () => {
    expect(await walk('?staffId=S-1105')).toEqual([1105]);
    expect(await walk('?employeeReferenceNumber=REF-1002')).toEqual([1002]);
    expect(await walk('?email=roster%40example.com&pageSize=2')).toEqual(SHARED_EMAIL);
    expect(await walk(`?email=roster%40example.com&staffId=S-${SHARED_EMAIL[1]}`)).toEqual([SHARED_EMAIL[1]]);
    expect(await walk('?email=roster%40example.com&staffId=S-1102')).toEqual([]);
  });

  it('refuses a cursor with another filter, a tampered one and one of another company', async () => {
    const first = expectEnvelope(await get('?email=roster%40example.com&pageSize=2'), 200);
    expectFailure(await get(`?email=alex%40example.com&${first.nextPageParameter}`), 400);
    const cursor = first.nextPageParameter!.slice('after='.length);
    expectFailure(await get(`?after=${cursor.slice(0, 4)}${cursor[4] === 'A' ? 'B' : 'A'}${cursor.slice(5)}`), 400);
    expectFailure(await get(`?after=${cursor}`, await t.token({ type: 'developer', companyId: 2 })), 400);
  });

  it('shows another company only its own staff, and a foreign filter matches nothing', async () => {
    const other = await t.token({ type: 'developer', companyId: 2 });
    expect(ids(expectEnvelope(await get('', other), 200))).toEqual([2001]);
    expect(expectEnvelope(await get('?staffId=S-2001'), 200).data).toEqual([]);
  });

  it('answers a timesheet key with 403 and bad parameters with 400 naming them', async () => {
    expectFailure(await get('', await t.token({ type: 'timesheet', companyId: 1 })), 403);
    for (const [query, name] of [
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=x', 'pageSize'],
      ['?employeeId=1001', 'employeeId'],
    ] as const) {
      expect(JSON.stringify(expectFailure(await get(query), 400).errors), query).toContain(name);
    }
  });

  it('GraphQL: the same pages through Query.staffs, FORBIDDEN to a timesheet key', async () => {
    const query = `query ($after: String, $filter: StaffFilter) {
      staffs(first: 2, after: $after, filter: $filter) { edges { node { employeeId } } pageInfo { hasNextPage endCursor } } }`;
    const seen: number[] = [];
    let after: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const page = expectData(await t.graphql(developer, query, after ? { after } : { filter: { email: 'roster@example.com' } })).staffs;
      seen.push(...page.edges.map((e: { node: { employeeId: number } }) => e.node.employeeId));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(SHARED_EMAIL);
    const timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
    expectFieldError(await t.graphql(timesheetKey, '{ staffs { edges { node { employeeId } } } }'), 'FORBIDDEN', ['staffs']);
  });
});
