import type { Knex } from 'knex';
import type { Principal } from '../shared/principal.js';

/**
 * The tenant rules, written once. Every repository read goes through one of these, so a
 * record outside the caller's scope is simply not found, whichever API asked.
 */
export function withinCompany(query: Knex.QueryBuilder, companyColumn: string, principal: Pick<Principal, 'companyId'>): Knex.QueryBuilder {
  return query.where(companyColumn, principal.companyId);
}

/** Timesheets: the company must match, and the customer and site must be among the key's. */
export function withinTimesheetScope(
  query: Knex.QueryBuilder,
  columns: { company: string; customer: string; site: string },
  principal: Principal,
): Knex.QueryBuilder {
  query.where(columns.company, principal.companyId);
  if (principal.customerIds.length > 0) query.whereIn(columns.customer, principal.customerIds as number[]);
  if (principal.siteIds.length > 0) query.whereIn(columns.site, principal.siteIds as number[]);
  return query;
}

/**
 * Customers: the company must match. A timesheet key reaches its own customers and the
 * customers of its own sites (both when it has both, as for its timesheets); a key with
 * neither, and every developer key, reaches all of the company's.
 */
export function withinCustomerScope(
  query: Knex.QueryBuilder,
  columns: { company: string; customer: string },
  principal: Principal,
): Knex.QueryBuilder {
  query.where(columns.company, principal.companyId);
  if (principal.keyType !== 'timesheet') return query;
  if (principal.customerIds.length > 0) query.whereIn(columns.customer, principal.customerIds as number[]);
  if (principal.siteIds.length > 0) {
    query.whereIn(columns.customer, (sub) => sub.from('sites').whereIn('id', principal.siteIds as number[]).select('customer_id'));
  }
  return query;
}

/**
 * Sites: the company (through the site's customer) must match. A timesheet key reaches its own
 * sites and the sites of its own customers (both when it has both, as for its timesheets); a
 * key with neither, and every developer key, reaches all of the company's.
 */
export function withinSiteScope(
  query: Knex.QueryBuilder,
  columns: { company: string; customer: string; site: string },
  principal: Principal,
): Knex.QueryBuilder {
  query.where(columns.company, principal.companyId);
  if (principal.keyType !== 'timesheet') return query;
  if (principal.customerIds.length > 0) query.whereIn(columns.customer, principal.customerIds as number[]);
  if (principal.siteIds.length > 0) query.whereIn(columns.site, principal.siteIds as number[]);
  return query;
}
