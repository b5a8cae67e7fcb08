import type { Db } from '../db/knex.js';
import type { Principal } from '../auth/principal.js';
import { applyKeysetPage, type KeysetPage } from '../pagination/keyset.js';
import { alignById, toBool, toInt, toText } from './columns.js';
import { withinCompany } from './tenant-scope.js';
import { selectRows } from '../db/select-rows.js';

export interface LicenseRecord {
  securityLicenseId: number;
  employeeId: number;
  companyId: number;
  firstName: string | null;
  lastName: string | null;
  state: string | null;
  licenseNumber: string | null;
  status: string | null;
  expiryDate: string | null;
  reminder: number | null;
  critical: boolean | null;
  attachmentLink: string | null;
  licenceSector: string | null;
  isInvalidLicense: boolean | null;
}

function toLicense(row: Record<string, unknown>): LicenseRecord {
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

// Staff names travel with every license read, joined in the same statement.
function selectLicenses(db: Db, principal: Principal) {
  return withinCompany(
    db('licenses as l')
      .join('staff as s', 's.id', 'l.employee_id')
      .select('l.*', 's.first_name', 's.last_name', 's.company_id'),
    's.company_id',
    principal,
  );
}

export async function loadLicenses(db: Db, principal: Principal, ids: readonly number[]): Promise<(LicenseRecord | null)[]> {
  const rows = await selectRows(db, selectLicenses(db, principal).whereIn('l.security_license_id', ids as number[]));
  return alignById(ids, rows.map(toLicense), (l) => l.securityLicenseId);
}

/** One keyset page of an employee's licenses, ordered by securityLicenseId (size + 1 rows at most). */
export async function licensePage(
  db: Db,
  principal: Principal,
  employeeId: number,
  page: KeysetPage,
): Promise<LicenseRecord[]> {
  const query = selectLicenses(db, principal).where('l.employee_id', employeeId);
  if (page.filter !== null) query.where('l.license_number', page.filter);
  applyKeysetPage(query, 'l.security_license_id', page);
  const rows = await selectRows(db, query);
  return rows.map(toLicense);
}
