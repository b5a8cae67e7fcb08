import type { Db, Queryable } from '../shared/db/knex.js';
import { chunk, ID_CHUNK } from '../shared/chunk.js';
import type { Principal } from '../shared/principal.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { alignById, groupById } from '../shared/db/columns.js';
import { selectRows } from '../shared/db/statements.js';
import { applyKeysetPage, withinCustomerScope, withinSiteScope } from './tenant-scope.js';

function toCustomer(row: Record<string, unknown>) {
  return { customerApiId: Number(row.id), customerName: String(row.name) };
}

export type CustomerRecord = ReturnType<typeof toCustomer>;

function selectCustomers(db: Db, principal: Principal) {
  return withinCustomerScope(db('customers as c').select('c.id', 'c.name'), { company: 'c.company_id', customer: 'c.id' }, principal);
}

export async function loadCustomers(db: Db, principal: Principal, ids: readonly number[]): Promise<(CustomerRecord | null)[]> {
  const rows = await selectRows(db, selectCustomers(db, principal).whereIn('c.id', ids as number[]));
  return alignById(ids, rows.map(toCustomer), (c) => c.customerApiId);
}

/** One keyset page of the customers in the key's scope, by id (size + 1 rows at most). */
export async function customerPage(db: Db, principal: Principal, page: KeysetPage): Promise<CustomerRecord[]> {
  return (await selectRows(db, applyKeysetPage(selectCustomers(db, principal), 'c.id', page))).map(toCustomer);
}

function toSite(row: Record<string, unknown>) {
  return {
    siteApiId: Number(row.id),
    siteName: String(row.name),
    customerApiId: Number(row.customer_id),
    customerName: String(row.customer_name),
  };
}

export type SiteRecord = ReturnType<typeof toSite>;

// The customer's name travels with every site read, joined in the same statement.
function selectSites(db: Db, principal: Principal) {
  const query = db('sites as s').join('customers as c', 'c.id', 's.customer_id').select('s.id', 's.name', 's.customer_id', 'c.name as customer_name');
  return withinSiteScope(query, { company: 'c.company_id', customer: 's.customer_id', site: 's.id' }, principal);
}

export async function loadSites(db: Db, principal: Principal, ids: readonly number[]): Promise<(SiteRecord | null)[]> {
  const rows = await selectRows(db, selectSites(db, principal).whereIn('s.id', ids as number[]));
  return alignById(ids, rows.map(toSite), (s) => s.siteApiId);
}

/**
 * One keyset page of the sites in the key's scope, by id (size + 1 rows at most); the page's
 * filter, when set, is a customer id. A customer outside the scope simply has no sites here.
 */
export async function sitePage(db: Db, principal: Principal, page: KeysetPage): Promise<SiteRecord[]> {
  const query = selectSites(db, principal);
  if (page.filter !== null) query.where('s.customer_id', Number(page.filter));
  return (await selectRows(db, applyKeysetPage(query, 's.id', page))).map(toSite);
}

/** The first `size + 1` sites (by id) of each of these customers within the key's scope, grouped like the ids, in one statement. */
export async function firstSitesOfCustomers(db: Db, principal: Principal, customerIds: readonly number[], size: number): Promise<SiteRecord[][]> {
  const ranked = selectSites(db, principal)
    .whereIn('s.customer_id', customerIds as number[])
    .select(db.raw('row_number() over (partition by s.customer_id order by s.id) as rn'));
  const query = db.from(ranked.as('ranked')).select('id', 'name', 'customer_id', 'customer_name').where('rn', '<=', size + 1).orderBy('id');
  return groupById(customerIds, (await selectRows(db, query)).map(toSite), (site) => site.customerApiId);
}

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

/** The kinds of record that belong to a company, directly or through their parents. */
export type OwnedKind = 'customers' | 'sites' | 'staff' | 'licenses' | 'timesheets' | 'subscribers';

/** The company each of these stored records belongs to, through its parents; unknown ids are left out. */
export async function ownerCompanies(q: Queryable, kind: OwnedKind, ids: Iterable<number>): Promise<Map<number, number>> {
  const companies = new Map<number, number>();
  for (const part of chunk([...new Set(ids)], ID_CHUNK)) {
    const query =
      kind === 'timesheets'
        ? q('timesheets as t')
            .join('sites as si', 'si.id', 't.site_id')
            .join('customers as c', 'c.id', 'si.customer_id')
            .select('t.timesheet_id as id', 'c.company_id')
            .whereIn('t.timesheet_id', part)
        : kind === 'sites'
          ? q('sites as s').join('customers as c', 'c.id', 's.customer_id').select('s.id as id', 'c.company_id').whereIn('s.id', part)
          : kind === 'licenses'
            ? q('licenses as l').join('staff as st', 'st.id', 'l.employee_id').select('l.security_license_id as id', 'st.company_id').whereIn('l.security_license_id', part)
            : q(kind).select('id', 'company_id').whereIn('id', part);
    for (const row of (await query) as Record<string, unknown>[]) companies.set(Number(row.id), Number(row.company_id));
  }
  return companies;
}
