import { describe, expect, it } from 'vitest';
import { demoDataSet } from '../../src/cli/demo-data.js';

describe('the demo data set', () => {
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
