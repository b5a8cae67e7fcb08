import { describe, expect, it } from 'vitest';
import { demoDataSet } from '../../src/cli/demo-data.js';

describe('demo data set', () => {
  const data = demoDataSet();
  const companyOfSite = new Map(
    data.sites.map((site) => [site.id, data.customers.find((c) => c.id === site.customerId)?.companyId]),
  );

  // The demo keys are company 1 with no customer or site limits; a default page holds 20.
  it('gives the demo keys more than one page of timesheets and of staff', () => {
    expect(data.timesheets.filter((t) => companyOfSite.get(t.siteId) === 1).length).toBeGreaterThan(20);
    expect(data.staff.filter((s) => s.companyId === 1).length).toBeGreaterThan(20);
  });

  it('keeps staff ids, staff numbers and emails unique', () => {
    for (const field of ['id', 'staffId', 'employeeReferenceNumber', 'email'] as const) {
      expect(new Set(data.staff.map((s) => s[field])).size, field).toBe(data.staff.length);
    }
  });

  it('gives company 1 more sites than one default page of the site list holds', () => {
    const data = demoDataSet();
    const customers = new Map(data.customers.map((c) => [c.id, c.companyId]));
    const sitesOfCompany1 = data.sites.filter((s) => customers.get(s.customerId) === 1);
    expect(sitesOfCompany1.length).toBeGreaterThan(20);
    expect(new Set(data.sites.map((s) => s.id)).size).toBe(data.sites.length);
    expect(new Set(data.customers.map((c) => c.id)).size).toBe(data.customers.length);
    for (const site of data.sites) expect(customers.has(site.customerId)).toBe(true);
  });
});
