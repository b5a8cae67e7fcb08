import { getArgumentValues, getNamedType, isObjectType, Kind, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import {
  filterText,
  keysetConnection,
  parseFilterText,
  readConnectionArgs,
  type ConnectionArgs,
  type KeysetPage,
  type ListIdentity,
} from '../../shared/pagination/keyset.js';
import { licensePage, loadStaff, staffPage, type LicenseRecord, type StaffFilter, type StaffRecord } from '../../repositories/licenses.js';
import type { GraphQLContext } from '../context.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY, scopedNode } from './access.js';
import { License } from './license.js';

/** A staff member, with the license page Query.staff read before it when that was all it was asked for. */
type StaffNode = StaffRecord & { licensePage?: { page: KeysetPage; rows: LicenseRecord[] } };

type LicensesArgs = ConnectionArgs & { licenseNumber?: string | null };

/** Staff.licenses as a keyset list: a cursor keeps the employee, the filter and the page size. */
const licenseList = (employeeId: number, args: LicensesArgs): ListIdentity => ({ kind: 'license', owner: employeeId, filter: args.licenseNumber });

export const Staff = builder.loadableNode('Staff', {
  description: 'An employee of the calling key’s company.',
  ...scopedNode<StaffNode>('Staff', DEVELOPER_ONLY, loadStaff, (staff) => staff.employeeId),
  fields: (t) => ({
    employeeId: t.exposeInt('employeeId'),
    staffId: t.exposeString('staffId', { nullable: true }),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    employeeReferenceNumber: t.exposeString('employeeReferenceNumber', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    mobile: t.exposeString('mobile', { nullable: true }),
    subcontractorCompany: t.exposeString('subcontractorCompany', { nullable: true }),
    licenses: t.connection({
      type: License,
      description:
        'The employee’s licenses ordered by securityLicenseId. A cursor keeps the filter and page size it was issued with.',
      args: { licenseNumber: t.arg.string({ description: 'Only the license with exactly this number.' }) },
      resolve: (staff, args, context) =>
        keysetConnection({
          args,
          list: licenseList(staff.employeeId, args),
          codec: context.services.cursors,
          fetch: (page) => licensePage(context.services.db, context.principal, staff.employeeId, page),
          keyOf: (l) => l.securityLicenseId,
          read: staff.licensePage,
        }),
    }),
  }),
});

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

/** The stand-in's fields, none of them selected. */
const NO_STAFF_FIELDS = {
  staffId: null,
  firstName: null,
  lastName: null,
  employeeReferenceNumber: null,
  email: null,
  mobile: null,
  subcontractorCompany: null,
};

/**
 * Query.staff when only the staff member's licenses are asked for: the license page first. A page
 * with licenses on it proves the staff member exists within the key's company (its statement joins
 * staff), so the lookup runs only for an empty page. The page rides on the staff member (a stand-in
 * when nothing else is read); arguments the page refuses leave the lookup first, and the licenses
 * field reports them.
 */
async function staffWithLicensePage(employeeId: number, context: GraphQLContext, info: GraphQLResolveInfo): Promise<number | StaffNode> {
  const field = onlyLicenses(info);
  const staffType = getNamedType(info.returnType);
  const definition = isObjectType(staffType) ? staffType.getFields().licenses : undefined;
  if (!field || !definition) return employeeId;
  let page: KeysetPage;
  try {
    const args = getArgumentValues(definition, field, info.variableValues) as LicensesArgs;
    page = readConnectionArgs(args, licenseList(employeeId, args), context.services.cursors);
  } catch {
    return employeeId;
  }
  const rows = await licensePage(context.services.db, context.principal, employeeId, page);
  const staff: StaffRecord =
    rows.length > 0
      ? { ...NO_STAFF_FIELDS, employeeId, companyId: context.principal.companyId }
      : await Staff.getDataloader(context).load(employeeId);
  return { ...staff, licensePage: { page, rows } };
}

builder.queryField('staff', (t) =>
  t.field({
    type: Staff,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description: 'One employee of the caller’s company (developer keys).',
    args: { employeeId: t.arg.int({ required: true }) },
    resolve: (_root, args, context, info) => staffWithLicensePage(args.employeeId, context, info),
  }),
);

const StaffFilterInput = builder.inputType('StaffFilter', {
  description: 'Staff list filters; all optional and exact, all given ones must hold.',
  fields: (t) => ({
    staffId: t.string({ description: 'The employee with exactly this staff id.' }),
    employeeReferenceNumber: t.string({ description: 'The employee with exactly this reference number.' }),
    email: t.string({ description: 'Employees with exactly this email address.' }),
  }),
});

const STAFF_FILTER_KEYS = ['staffId', 'employeeReferenceNumber', 'email'] as const;

builder.queryField('staffs', (t) =>
  t.connection({
    type: Staff,
    authScopes: DEVELOPER_ONLY,
    description:
      'The employees of the caller’s company ordered by employeeId (developer keys). A cursor keeps the filter and page size it was issued with.',
    args: { filter: t.arg({ type: StaffFilterInput }) },
    resolve: (_root, args, context) =>
      keysetConnection({
        args,
        list: { kind: 'staff', owner: context.principal.companyId, filter: filterText(args.filter, STAFF_FILTER_KEYS) },
        codec: context.services.cursors,
        fetch: (page) => staffPage(context.services.db, context.principal, parseFilterText<StaffFilter>(page.filter), page),
        keyOf: (row) => row.employeeId,
      }),
  }),
);
