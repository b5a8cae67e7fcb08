import type { Db } from '../shared/db/knex.js';
import type { Principal } from '../shared/principal.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { applyKeysetPage } from './keyset-page.js';
import { alignById } from '../shared/db/columns.js';
import { withinSiteScope } from './tenant-scope.js';
import { selectRows } from '../shared/db/statements.js';

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
  return withinSiteScope(
    db('sites as s').join('customers as c', 'c.id', 's.customer_id').select('s.id', 's.name', 's.customer_id', 'c.name as customer_name'),
    { company: 'c.company_id', customer: 's.customer_id', site: 's.id' },
    principal,
  );
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

/**
 * The first `size + 1` sites (by id) of each of these customers within the key's scope, in one
 * statement: a customer list asking for each customer's first sites costs one query, not one per
 * customer.
 */
export async function firstSitesOfCustomers(db: Db, principal: Principal, customerIds: readonly number[], size: number): Promise<Map<number, SiteRecord[]>> {
  const ranked = selectSites(db, principal)
    .whereIn('s.customer_id', customerIds as number[])
    .select(db.raw('row_number() over (partition by s.customer_id order by s.id) as rn'));
  const query = db.from(ranked.as('ranked')).select('id', 'name', 'customer_id', 'customer_name').where('rn', '<=', size + 1).orderBy('id');
  const byCustomer = new Map<number, SiteRecord[]>(customerIds.map((id) => [id, []]));
  for (const site of (await selectRows(db, query)).map(toSite)) byCustomer.get(site.customerApiId)?.push(site);
  return byCustomer;
}
