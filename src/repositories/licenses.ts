import type { Db, Queryable } from '../shared/db/knex.js';
import type { Principal } from '../shared/principal.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { alignById, toBool, toInt, toText } from '../shared/db/columns.js';
import { selectRows } from '../shared/db/statements.js';
import { applyKeysetPage, withinCompany } from './tenant-scope.js';

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

function toLicense(row: Record<string, unknown>) {
  return {
    securityLicenseId: Number(row.security_license_id),
    employeeId: Number(row.employee_id),
    companyId: Number(row.company_id),
    firstName: toText(row.first_name),
    lastName: toText(row.last_name),
    state: toText(row.state),
    licenseNumber: toText(row.license_number),
    status: toText(row.status),
    expiryDate: toText(row.expiry_date),
    reminder: toInt(row.reminder),
    critical: toBool(row.critical),
    attachmentLink: toText(row.attachment_link),
    licenceSector: toText(row.licence_sector),
    isInvalidLicense: toBool(row.is_invalid_license),
  };
}

export type LicenseRecord = ReturnType<typeof toLicense>;

// Staff names travel with every license read, joined in the same statement.
function selectLicenses(db: Db, companyId: number) {
  const query = db('licenses as l').join('staff as s', 's.id', 'l.employee_id').select('l.*', 's.first_name', 's.last_name', 's.company_id');
  return withinCompany(query, 's.company_id', { companyId });
}

export async function loadLicenses(db: Db, principal: Principal, ids: readonly number[]): Promise<(LicenseRecord | null)[]> {
  const rows = await selectRows(db, selectLicenses(db, principal.companyId).whereIn('l.security_license_id', ids as number[]));
  return alignById(ids, rows.map(toLicense), (l) => l.securityLicenseId);
}

/** One keyset page of an employee's licenses, ordered by securityLicenseId (size + 1 rows at most). */
export async function licensePage(db: Db, principal: Principal, employeeId: number, page: KeysetPage): Promise<LicenseRecord[]> {
  const query = selectLicenses(db, principal.companyId).where('l.employee_id', employeeId);
  if (page.filter !== null) query.where('l.license_number', page.filter);
  return (await selectRows(db, applyKeysetPage(query, 'l.security_license_id', page))).map(toLicense);
}

/** What the expiry scan needs of a license. */
export type ExpiringLicense = Awaited<ReturnType<typeof licensesExpiringBy>>[number];

/**
 * One keyset chunk of licenses expiring on or before `horizon`, by id after `afterId`: the expiry
 * scan's candidates (its per-license rule runs in code: date arithmetic in SQL is not portable).
 */
export async function licensesExpiringBy(db: Queryable, horizon: string, afterId: number, limit: number) {
  const rows = (await db('licenses as l')
    .join('staff as s', 's.id', 'l.employee_id')
    .whereNotNull('l.expiry_date')
    .where('l.expiry_date', '<=', horizon)
    .where('l.security_license_id', '>', afterId)
    .orderBy('l.security_license_id')
    .limit(limit)
    .select('l.security_license_id', 'l.expiry_date', 'l.reminder', 's.company_id')) as Record<string, unknown>[];
  return rows.map((row) => ({
    securityLicenseId: Number(row.security_license_id),
    expiryDate: String(row.expiry_date),
    reminder: toInt(row.reminder),
    companyId: Number(row.company_id),
  }));
}
