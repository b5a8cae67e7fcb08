import type { Knex } from 'knex';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import type { Principal } from '../shared/principal.js';

/**
 * What every list read is built from. First the tenant rules, written once: every repository read
 * goes through one of them, so a record outside the caller's scope is simply not found, whichever
 * API asked. Then the keyset page (applyKeysetPage, below).
 */
export function withinCompany(query: Knex.QueryBuilder, companyColumn: string, principal: Pick<Principal, 'companyId'>): Knex.QueryBuilder {
  return query.where(companyColumn, principal.companyId);
}

type Columns = { company: string; customer: string; site: string };

/** Timesheets: the company must match, and the customer and site must be among the key's. */
export function withinTimesheetScope(query: Knex.QueryBuilder, columns: Columns, principal: Principal): Knex.QueryBuilder {
  query.where(columns.company, principal.companyId);
  if (principal.customerIds.length > 0) query.whereIn(columns.customer, principal.customerIds as number[]);
  if (principal.siteIds.length > 0) query.whereIn(columns.site, principal.siteIds as number[]);
  return query;
}

/**
 * Sites: the company (through the site's customer) must match; a timesheet key is held to its
 * customers and sites as for its timesheets, a developer key reaches all of the company's.
 */
export function withinSiteScope(query: Knex.QueryBuilder, columns: Columns, principal: Principal): Knex.QueryBuilder {
  if (principal.keyType === 'timesheet') return withinTimesheetScope(query, columns, principal);
  return withinCompany(query, columns.company, principal);
}

/** Customers: as sites, a timesheet key's own sites standing for their customers. */
export function withinCustomerScope(query: Knex.QueryBuilder, columns: Omit<Columns, 'site'>, principal: Principal): Knex.QueryBuilder {
  query.where(columns.company, principal.companyId);
  if (principal.keyType !== 'timesheet') return query;
  if (principal.customerIds.length > 0) query.whereIn(columns.customer, principal.customerIds as number[]);
  if (principal.siteIds.length > 0) {
    query.whereIn(columns.customer, (sub) => sub.from('sites').whereIn('id', principal.siteIds as number[]).select('customer_id'));
  }
  return query;
}

/**
 * Adds a keyset page's conditions to a query over `column`: the bound at the page's starting
 * place, the order and one row more than the page (to learn whether another page exists). A
 * list shown newest first ('desc') walks forward towards smaller keys.
 */
export function applyKeysetPage<Q extends Knex.QueryBuilder>(query: Q, column: string, page: KeysetPage, order: 'asc' | 'desc' = 'asc'): Q {
  const ascending = order === 'asc';
  const forward = page.direction === 'forward';
  if (page.from !== null) {
    const { key, side } = page.from;
    const past = ascending ? '>' : '<';
    const ahead = ascending ? '<' : '>';
    // The record at the key itself is on the page only when the place is on its far side.
    if (forward) query.where(column, side === 'after' ? past : `${past}=`, key);
    else query.where(column, side === 'before' ? ahead : `${ahead}=`, key);
  }
  query.orderBy(column, forward === ascending ? 'asc' : 'desc').limit(page.size + 1);
  return query;
}
