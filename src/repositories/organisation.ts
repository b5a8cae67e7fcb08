import type { Db } from '../shared/db/knex.js';

/** Problems with a key's scope: the company must exist and own the listed customers and sites. */
export async function keyScopeProblems(db: Db, companyId: number, customerIds: readonly number[], siteIds: readonly number[]): Promise<string[]> {
  if (!(await db('companies').where({ id: companyId }).first('id'))) return [`company ${companyId} does not exist`];
  const problems: string[] = [];
  if (customerIds.length > 0) {
    const found = (await db('customers').where({ company_id: companyId }).whereIn('id', customerIds).pluck('id')) as number[];
    const owned = new Set(found.map(Number));
    for (const id of customerIds) if (!owned.has(id)) problems.push(`customer ${id} does not belong to company ${companyId}`);
  }
  if (siteIds.length > 0) {
    const rows = (await db('sites as s')
      .join('customers as c', 'c.id', 's.customer_id')
      .where('c.company_id', companyId)
      .whereIn('s.id', siteIds)
      .select('s.id', 's.customer_id')) as { id: number; customer_id: number }[];
    const owner = new Map(rows.map((row) => [Number(row.id), Number(row.customer_id)]));
    for (const id of siteIds) {
      const customer = owner.get(id);
      if (customer === undefined) problems.push(`site ${id} does not belong to company ${companyId}`);
      else if (customerIds.length > 0 && !customerIds.includes(customer)) {
        problems.push(`site ${id} belongs to customer ${customer}, which the key does not include`);
      }
    }
  }
  return problems;
}

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  return (await db('companies').first('id')) === undefined;
}
