import { DEFAULT_PAGE_SIZE, filterText, keysetConnection, parseFilterText } from '../../shared/pagination/keyset.js';
import { licensePage } from '../../repositories/licenses.js';
import { loadStaff, staffPage, type StaffFilter, type StaffRecord } from '../../repositories/staff.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY, scopedNodeLoad } from './access.js';
import { License } from './license.js';
import { licenseList, staffFromLicensePage, takeFetchedPage } from './license-page-first.js';

export { DEFAULT_LICENSE_PAGE_SIZE } from './license-page-first.js';

export const Staff = builder.loadableNode('Staff', {
  description: 'An employee of the calling key’s company.',
  authScopes: DEVELOPER_ONLY,
  id: { resolve: (staff: StaffRecord) => staff.employeeId, parse: (id: string) => Number(id) },
  load: scopedNodeLoad('Staff', DEVELOPER_ONLY, loadStaff),
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
          read: takeFetchedPage(context, staff.employeeId, args),
        }),
    }),
  }),
});

builder.queryField('staff', (t) =>
  t.field({
    type: Staff,
    nullable: true,
    authScopes: DEVELOPER_ONLY,
    description: 'One employee of the caller’s company (developer keys).',
    args: { employeeId: t.arg.int({ required: true }) },
    resolve: (_root, args, context, info) => staffFromLicensePage(args.employeeId, context, info),
  }),
);

export const DEFAULT_STAFF_PAGE_SIZE = DEFAULT_PAGE_SIZE;

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
    resolve: (_root, args, context) => {
      const list = {
        kind: 'staff',
        owner: context.principal.companyId,
        filter: filterText(args.filter, STAFF_FILTER_KEYS),
        defaultSize: DEFAULT_STAFF_PAGE_SIZE,
      };
      return keysetConnection({
        args,
        list,
        codec: context.services.cursors,
        fetch: (page) => staffPage(context.services.db, context.principal, parseFilterText<StaffFilter>(page.filter), page),
        keyOf: (row) => row.employeeId,
      });
    },
  }),
);
