import { getArgumentValues, getNamedType, isObjectType, Kind, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import { licensePage, type LicenseRecord } from '../../repositories/licenses.js';
import type { StaffRecord } from '../../repositories/staff.js';
import {
  DEFAULT_PAGE_SIZE,
  readConnectionArgs,
  type ConnectionArgs,
  type KeysetPage,
  type ListIdentity,
} from '../../shared/pagination/keyset.js';
import type { GraphQLContext } from '../context.js';

/** The arguments of Staff.licenses. */
export interface LicensesArgs extends ConnectionArgs {
  licenseNumber?: string | null;
}

export const DEFAULT_LICENSE_PAGE_SIZE = DEFAULT_PAGE_SIZE;

/** Staff.licenses as a keyset list: a cursor keeps the employee, the filter and the page size. */
export function licenseList(employeeId: number, args: LicensesArgs): ListIdentity {
  return { kind: 'license', owner: employeeId, filter: args.licenseNumber, defaultSize: DEFAULT_LICENSE_PAGE_SIZE };
}

interface FetchedPage {
  args: string;
  page: KeysetPage;
  rows: LicenseRecord[];
}

/** Per request and employee: the license page read before the staff member was looked up. */
const fetchedFirst = new WeakMap<GraphQLContext, Map<number, FetchedPage>>();

// null and an absent argument differ (an absent licenseNumber keeps the cursor's filter), and
// JSON keeps null while it drops undefined, so two argument sets with one key read one page.
function argsKey(args: LicensesArgs): string {
  return JSON.stringify([args.first, args.last, args.after, args.before, args.licenseNumber]);
}

/** The `licenses` field when it is all the staff selection asks for (besides `__typename`). */
function onlyLicenses(info: GraphQLResolveInfo): FieldNode | null {
  if (info.fieldNodes.length !== 1) return null;
  let licenses: FieldNode | null = null;
  for (const selection of info.fieldNodes[0]!.selectionSet?.selections ?? []) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    if (selection.name.value === '__typename') continue;
    if (selection.name.value !== 'licenses' || licenses) return null;
    licenses = selection;
  }
  return licenses;
}

/**
 * Query.staff when only the staff member's licenses are asked for: the license page first. A
 * page with licenses on it proves the staff member exists within the key's company (the page's
 * statement joins staff and scopes it to the company), so the staff lookup is needed only when
 * the page is empty: one statement per page instead of two. Returns the staff member's
 * stand-in (only its id is read, as nothing else is selected), or the id to look up as before
 * when the page is empty or its arguments are refused (the licenses field then reports it).
 */
export async function staffFromLicensePage(
  employeeId: number,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<number | StaffRecord> {
  const field = onlyLicenses(info);
  const staffType = getNamedType(info.returnType);
  const definition = isObjectType(staffType) ? staffType.getFields().licenses : undefined;
  if (!field || !definition) return employeeId;
  let args: LicensesArgs;
  let page: KeysetPage;
  try {
    args = getArgumentValues(definition, field, info.variableValues) as LicensesArgs;
    page = readConnectionArgs(args, licenseList(employeeId, args), context.services.cursors);
  } catch {
    return employeeId;
  }
  const rows = await licensePage(context.services.db, context.principal, employeeId, page);
  let byEmployee = fetchedFirst.get(context);
  if (!byEmployee) {
    byEmployee = new Map();
    fetchedFirst.set(context, byEmployee);
  }
  byEmployee.set(employeeId, { args: argsKey(args), page, rows });
  if (rows.length === 0) return employeeId;
  return {
    employeeId,
    companyId: context.principal.companyId,
    staffId: null,
    firstName: null,
    lastName: null,
    employeeReferenceNumber: null,
    email: null,
    mobile: null,
    subcontractorCompany: null,
  };
}

/** The page staffFromLicensePage read for these arguments, once; null when there is none. */
export function takeFetchedPage(
  context: GraphQLContext,
  employeeId: number,
  args: LicensesArgs,
): { page: KeysetPage; rows: LicenseRecord[] } | null {
  const byEmployee = fetchedFirst.get(context);
  const fetched = byEmployee?.get(employeeId);
  if (!fetched || fetched.args !== argsKey(args)) return null;
  byEmployee!.delete(employeeId);
  return fetched;
}
