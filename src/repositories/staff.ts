import type { Db } from '../shared/db/knex.js';
import type { Principal } from '../shared/principal.js';
import { alignById, toText } from '../shared/db/columns.js';
import { withinCompany } from './tenant-scope.js';
import { selectRows } from '../shared/db/statements.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { applyKeysetPage } from './keyset-page.js';

function toStaff(row: Record<string, unknown>) {
  return {
    employeeId: Number(row.id),
    companyId: Number(row.company_id),
    staffId: toText(row.staff_id),
    firstName: toText(row.first_name),
    lastName: toText(row.last_name),
    employeeReferenceNumber: toText(row.employee_reference_number),
    email: toText(row.email),
    mobile: toText(row.mobile),
    subcontractorCompany: toText(row.subcontractor_company),
  };
}

export type StaffRecord = ReturnType<typeof toStaff>;

export async function loadStaff(db: Db, principal: Principal, ids: readonly number[]): Promise<(StaffRecord | null)[]> {
  const rows = await selectRows(db, withinCompany(db('staff').whereIn('id', ids as number[]), 'company_id', principal));
  return alignById(ids, rows.map(toStaff), (s) => s.employeeId);
}

/** The staff list filters, all optional and exact. */
export interface StaffFilter {
  staffId?: string;
  employeeReferenceNumber?: string;
  email?: string;
}

/** One keyset page of the company's staff, ordered by employeeId (size + 1 rows at most). */
export async function staffPage(db: Db, principal: Principal, filter: StaffFilter, page: KeysetPage): Promise<StaffRecord[]> {
  const query = withinCompany(db('staff'), 'company_id', principal);
  if (filter.staffId !== undefined) query.where('staff_id', filter.staffId);
  if (filter.employeeReferenceNumber !== undefined) query.where('employee_reference_number', filter.employeeReferenceNumber);
  if (filter.email !== undefined) query.where('email', filter.email);
  return (await selectRows(db, applyKeysetPage(query, 'id', page))).map(toStaff);
}
