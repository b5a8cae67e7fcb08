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

/** The parts of a principal the tenant rules bind: the values of a shaped query (src/shared/db/query-shape.ts). */
export interface ScopeValues {
  companyId: number;
  customerIds: readonly number[];
  siteIds: readonly number[];
  [name: string]: number | string | null | readonly (string | number)[];
}

export function scopeValuesOf(principal: Principal): ScopeValues {
  return { companyId: principal.companyId, customerIds: principal.customerIds, siteIds: principal.siteIds };
}

/**
 * The principal a shaped query is built for: its scope values (placeholders while the shape is
 * built) in place of the key's. The key type decides the form of some rules, so it is part of
 * the shape's structure wherever a rule reads it.
 */
export function principalOfScope(values: ScopeValues, keyType: Principal['keyType'] = 'developer'): Principal {
  return { keyId: 0, keyType, companyId: values.companyId, customerIds: values.customerIds, siteIds: values.siteIds };
}
