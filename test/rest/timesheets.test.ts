import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure, type Envelope } from '../support/envelope.js';
import { SEEDED_TIMESHEET_9001, TIMESHEET_FIELDS } from '../support/contract-fields.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest } from './http.js';

/** The failure with every mention of the requested id blanked, for comparing two 404s. */
function anonymised(env: Envelope, id: number): unknown {
  return JSON.parse(JSON.stringify(env).split(String(id)).join('<id>'));
}

describe('GET /api/external/timesheets/{id}', () => {
  let t: TestApp;
  let companyWide: string;
  beforeAll(async () => {
    t = await startTestApp();
    companyWide = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  const get = (id: number | string, token = companyWide) => t.request('GET', `/api/external/timesheets/${id}`, { token });

  it('returns one entry with exactly the fields of a timesheet entry (docs/rest-api.md)', async () => {
    const env = expectEnvelope(await get(9001), 200);
    expect(env.count).toBe(1);
    expect(Array.isArray(env.data)).toBe(false);
    expect(TIMESHEET_FIELDS).toHaveLength(41);
    expect(Object.keys(env.data).sort()).toEqual([...TIMESHEET_FIELDS].sort());
    expect(env.data).toEqual(SEEDED_TIMESHEET_9001);
  });

  it('gives null for what the entry does not record', async () => {
    const { data } = expectEnvelope(await get(9001), 200);
    for (const field of [
      'subcontractorCompany',
      'timeclockBreakStartTime',
      'timeclockBreakEndTime',
      'clockOutCoordinates',
      'staffSubmittedTimesheetTimes',
      'invoiceStartTime',
      'invoiceEndTime',
      'invoiceBreakTime',
      'approvedBy',
      'approvedDateTime',
      'customerApprovalStatus',
      'customerApprover',
      'customerApprovedDateTime',
      'scheduleNotes',
    ]) {
      expect(data, field).toHaveProperty(field, null);
    }
  });

  it('gives a key with empty customer and site lists every entry of its company', async () => {
    for (const id of [9001, 9002, 9003]) {
      expect(expectEnvelope(await get(id), 200).data.timesheetId).toBe(id);
    }
  });

  it('answers a missing and an out-of-company entry with the same 404', async () => {
    const missing = expectFailure(await get(999999), 404);
    const foreign = expectFailure(await get(9004), 404);
    expect(anonymised(foreign, 9004)).toEqual(anonymised(missing, 999999));
  });

  it('limits a key to its customers', async () => {
    const token = await t.token({ type: 'timesheet', companyId: 1, customerIds: [10] });
    expect(expectEnvelope(await get(9001, token), 200).data.timesheetId).toBe(9001);
    expect(expectEnvelope(await get(9002, token), 200).data.timesheetId).toBe(9002);
    const outside = expectFailure(await get(9003, token), 404);
    const missing = expectFailure(await get(999999, token), 404);
    expect(anonymised(outside, 9003)).toEqual(anonymised(missing, 999999));
  });

  it('limits a key to its sites', async () => {
    const token = await t.token({ type: 'timesheet', companyId: 1, siteIds: [100, 110] });
    expect(expectEnvelope(await get(9001, token), 200).data.timesheetId).toBe(9001);
    expect(expectEnvelope(await get(9003, token), 200).data.timesheetId).toBe(9003);
    const outside = expectFailure(await get(9002, token), 404);
    const missing = expectFailure(await get(999999, token), 404);
    expect(anonymised(outside, 9002)).toEqual(anonymised(missing, 999999));
  });

  it('requires both the customer and the site to be among the key’s', async () => {
    // Site 110 belongs to customer 11, which this key does not have.
    const token = await t.token({ type: 'timesheet', companyId: 1, customerIds: [10], siteIds: [100, 110] });
    expect(expectEnvelope(await get(9001, token), 200).data.timesheetId).toBe(9001);
    expectFailure(await get(9002, token), 404);
    expectFailure(await get(9003, token), 404);
  });

  it('does not let a key of another company read company 1 entries, even naming their customer and site', async () => {
    const token = await t.token({ type: 'timesheet', companyId: 2, customerIds: [10], siteIds: [100] });
    expectFailure(await get(9001, token), 404);
    expect(expectEnvelope(await get(9004, await t.token({ type: 'timesheet', companyId: 2 })), 200).data.timesheetId).toBe(9004);
  });

  it.each(['0', '-1', 'abc', '1.5', '9001x', '+5'])('rejects id %j with 400', async (id) => {
    expectFailure(await get(id), 400);
  });

  it.each(['2147483648', '99999999999', '99999999999999999999'])('answers a well-formed id beyond the id space (%s) with 404', async (id) => {
    const res = await get(id);
    expectFailure(res, 404);
    expect(res.body.status.errorMessage).not.toMatch(/Variable|Int cannot/);
  });

  it('rejects query parameters and a request body with 400', async () => {
    expectFailure(await t.request('GET', '/api/external/timesheets/9001?expand=all', { token: companyWide }), 400);
    expectFailure(await rawRequest(t, 'GET', '/api/external/timesheets/9001', { token: companyWide, body: 'x' }), 400);
  });
});
