import type { Knex } from 'knex';
import type { Principal } from '../shared/principal.js';

/**
 * The tenant rules, written once. Every repository read goes through one of these, so a
 * record outside the caller's scope is simply not found, whichever API asked.
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
 * Sites: the company (through the site's customer) must match. A timesheet key reaches its own
 * sites and the sites of its own customers (both when it has both, as for its timesheets); a
 * key with neither, and every developer key, reaches all of the company's.
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
