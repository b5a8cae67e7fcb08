import type { Db } from '../shared/db/knex.js';
import type { Principal } from '../shared/principal.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { applyKeysetPage } from './keyset-page.js';
import { alignById } from '../shared/db/columns.js';
import { withinCustomerScope } from './tenant-scope.js';
import { selectRows } from '../shared/db/statements.js';

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
