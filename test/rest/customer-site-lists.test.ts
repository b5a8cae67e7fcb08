import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure, type Envelope } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest } from './http.js';

const CUSTOMERS = '/api/external/customers';
const SITES = '/api/external/sites';

/** Company 1 gets customers 12–16 beside the seeded 10 and 11, each with three sites. */
const EXTRA_CUSTOMERS = [12, 13, 14, 15, 16];
const ALL_CUSTOMERS = [10, 11, ...EXTRA_CUSTOMERS];
const EXTRA_SITES = EXTRA_CUSTOMERS.flatMap((c) => [c * 10 + 1000, c * 10 + 1001, c * 10 + 1002]);
const ALL_SITES = [100, 101, 110, ...EXTRA_SITES];

const customerIds = (env: Envelope) => (env.data as { customerApiId: number }[]).map((c) => c.customerApiId);
const siteIds = (env: Envelope) => (env.data as { siteApiId: number }[]).map((s) => s.siteApiId);

describe('customer and site lists', () => {
  let t: TestApp;
  let developer: string;
  let timesheetAll: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.db('customers').insert(EXTRA_CUSTOMERS.map((id) => ({ id, company_id: 1, name: `Customer ${id}` })));
    await t.app.db('sites').insert(
      EXTRA_SITES.map((id) => ({ id, customer_id: Math.floor((id - 1000) / 10), name: `Site ${id}` })),
    );
    developer = await t.token({ type: 'developer', companyId: 1 });
    timesheetAll = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  const get = (path: string, token = developer) => t.request('GET', path, { token });

  async function walk(first: string, token = developer): Promise<Envelope[]> {
    const pages = [expectEnvelope(await get(first, token), 200)];
    for (let guard = 0; guard < 20; guard++) {
      const next = pages[pages.length - 1]!.nextPageParameter;
      if (next === undefined) break;
      pages.push(expectEnvelope(await get(`${first.split('?')[0]}?${next}`, token), 200));
    }
    return pages;
  }

  describe('GET /api/external/customers', () => {
    it('returns customerApiId and customerName by id, 20 per page by default, without a previous page', async () => {
      const env = expectEnvelope(await get(CUSTOMERS), 200);
      expect(env.data[0]).toEqual({ customerApiId: 10, customerName: 'Harbour Mall' });
      expect(customerIds(env)).toEqual(ALL_CUSTOMERS);
      expect(env.count).toBe(ALL_CUSTOMERS.length);
      expect(env).not.toHaveProperty('nextPageParameter');
      expect(env).not.toHaveProperty('prevPageParameter');
    });

    it('pages forward and back; the cursor also works as a GET body', async () => {
      const pages = await walk(`${CUSTOMERS}?pageSize=3`);
      expect(pages.map(customerIds)).toEqual([ALL_CUSTOMERS.slice(0, 3), ALL_CUSTOMERS.slice(3, 6), ALL_CUSTOMERS.slice(6)]);
      expect(pages[0]!.nextPageParameter).toMatch(/^after=/);
      const back = expectEnvelope(await get(`${CUSTOMERS}?${pages[2]!.prevPageParameter}`), 200);
      expect(pages[2]!.prevPageParameter).toMatch(/^before=/);
      expect(customerIds(back)).toEqual(ALL_CUSTOMERS.slice(3, 6));
      const viaBody = expectEnvelope(await rawRequest(t, 'GET', CUSTOMERS, { token: developer, body: pages[0]!.nextPageParameter! }), 200);
      expect(customerIds(viaBody)).toEqual(ALL_CUSTOMERS.slice(3, 6));
    });

    it('is readable with a timesheet key, scoped to its customers, its sites’ customers, or all', async () => {
      expect(customerIds(expectEnvelope(await get(CUSTOMERS, timesheetAll), 200))).toEqual(ALL_CUSTOMERS);
      const withCustomers = await t.token({ type: 'timesheet', companyId: 1, customerIds: [11, 13] });
      expect(customerIds(expectEnvelope(await get(CUSTOMERS, withCustomers), 200))).toEqual([11, 13]);
      const withSites = await t.token({ type: 'timesheet', companyId: 1, siteIds: [101, 1140] });
      expect(customerIds(expectEnvelope(await get(CUSTOMERS, withSites), 200))).toEqual([10, 14]);
      const other = await t.token({ type: 'developer', companyId: 2 });
      expect(customerIds(expectEnvelope(await get(CUSTOMERS, other), 200))).toEqual([20]);
      // Both lists narrow: a customer of the key that one of its sites belongs to.
      const both = await t.token({ type: 'timesheet', companyId: 1, customerIds: [11, 13], siteIds: [101, 1130] });
      expect(customerIds(expectEnvelope(await get(CUSTOMERS, both), 200))).toEqual([13]);
      const otherTimesheet = await t.token({ type: 'timesheet', companyId: 2 });
      expect(customerIds(expectEnvelope(await get(CUSTOMERS, otherTimesheet), 200))).toEqual([20]);
    });

    it.each(['0', '101', '-1', 'abc', ''])('refuses pageSize=%j with 400', async (value) => {
      expectFailure(await get(`${CUSTOMERS}?pageSize=${value}`), 400);
    });

    it('refuses unknown parameters, naming them, and tampered or foreign cursors with 400', async () => {
      const res = await get(`${CUSTOMERS}?color=red`);
      expectFailure(res, 400);
      expect(res.body.status.errorMessage).toContain('color');
      const next = expectEnvelope(await get(`${CUSTOMERS}?pageSize=2`), 200).nextPageParameter!;
      expectFailure(await get(`${CUSTOMERS}?${next.slice(0, -3)}abc`), 400);
      const other = await t.token({ type: 'developer', companyId: 2 });
      expectFailure(await get(`${CUSTOMERS}?${next}`, other), 400);
      expectFailure(await get(`${SITES}?${next}`), 400);
    });
  });

  describe('GET /api/external/sites', () => {
    it('returns sites with their customer, by id, and pages forward and back', async () => {
      const env = expectEnvelope(await get(SITES), 200);
      expect(env.data[0]).toEqual({ siteApiId: 100, siteName: 'Harbour Mall North Gate', customerApiId: 10, customerName: 'Harbour Mall' });
      expect(siteIds(env)).toEqual(ALL_SITES.slice(0, 18));
      const pages = await walk(`${SITES}?pageSize=5`);
      expect(pages.flatMap(siteIds)).toEqual(ALL_SITES);
      expect(pages.map((p) => p.count)).toEqual([5, 5, 5, 3]);
      const back = expectEnvelope(await get(`${SITES}?${pages[3]!.prevPageParameter}`), 200);
      expect(siteIds(back)).toEqual(ALL_SITES.slice(10, 15));
    });

    it('filters by customerId, and the cursor keeps the filter', async () => {
      const pages = await walk(`${SITES}?customerId=12&pageSize=2`);
      expect(pages.map(siteIds)).toEqual([[1120, 1121], [1122]]);
      const first = expectEnvelope(await get(`${SITES}?customerId=12&pageSize=2`), 200);
      expectFailure(await get(`${SITES}?customerId=13&${first.nextPageParameter}`), 400);
    });

    it('answers a customerId outside the scope with an empty page', async () => {
      for (const customerId of [20, 999]) {
        const env = expectEnvelope(await get(`${SITES}?customerId=${customerId}`), 200);
        expect(env.data).toEqual([]);
        expect(env.count).toBe(0);
      }
      const withCustomers = await t.token({ type: 'timesheet', companyId: 1, customerIds: [11] });
      expect(siteIds(expectEnvelope(await get(`${SITES}?customerId=10`, withCustomers), 200))).toEqual([]);
    });

    it('is scoped for timesheet keys: their sites, their customers’ sites, or all', async () => {
      expect(siteIds(expectEnvelope(await get(`${SITES}?pageSize=100`, timesheetAll), 200))).toEqual(ALL_SITES);
      const withCustomers = await t.token({ type: 'timesheet', companyId: 1, customerIds: [10, 12] });
      expect(siteIds(expectEnvelope(await get(SITES, withCustomers), 200))).toEqual([100, 101, 1120, 1121, 1122]);
      const withSites = await t.token({ type: 'timesheet', companyId: 1, siteIds: [110, 1131] });
      expect(siteIds(expectEnvelope(await get(SITES, withSites), 200))).toEqual([110, 1131]);
      const other = await t.token({ type: 'timesheet', companyId: 2 });
      expect(siteIds(expectEnvelope(await get(SITES, other), 200))).toEqual([200]);
      const both = await t.token({ type: 'timesheet', companyId: 1, customerIds: [11, 13], siteIds: [101, 1130] });
      expect(siteIds(expectEnvelope(await get(SITES, both), 200))).toEqual([1130]);
      const otherDeveloper = await t.token({ type: 'developer', companyId: 2 });
      expect(siteIds(expectEnvelope(await get(SITES, otherDeveloper), 200))).toEqual([200]);
    });

    it.each(['0', '-3', 'abc', '1.5', ''])('refuses customerId=%j with 400', async (value) => {
      expectFailure(await get(`${SITES}?customerId=${value}`), 400);
    });

    it('refuses an unknown parameter with 400, naming it', async () => {
      const res = await get(`${SITES}?customer=10`);
      expectFailure(res, 400);
      expect(res.body.status.errorMessage).toContain('customer');
    });
  });
});
