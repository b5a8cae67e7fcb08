import type { Knex } from 'knex';
import type { Principal } from '../shared/principal.js';

/**
 * The tenant rules, written once. Every repository read goes through one of these, so a
 * record outside the caller's scope is simply not found, whichever API asked.
 */
export function withinCompany(query: Knex.QueryBuilder, companyColumn: string, principal: Principal): Knex.QueryBuilder {
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
