import { loadLicenses, type LicenseRecord } from '../../repositories/licenses.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY, SCOPE_CHECKED_ON_ENTRY, scopedNode } from './access.js';

const EmployeeSecurityLicenseInfo = builder.objectRef<LicenseRecord>('EmployeeSecurityLicenseInfo').implement({
  description: 'The license as the employee record sees it (docs/rest-api.md, Security license).',
  fields: (t) => ({
    employeeSecurityLicenseId: t.exposeInt('securityLicenseId'),
    currentStatus: t.exposeString('status', { nullable: true }),
    expiryDate: t.expose('expiryDate', { type: 'DateTime', nullable: true }),
    licenceSector: t.exposeString('licenceSector', { nullable: true }),
  }),
});

export const License = builder.loadableNode('License', {
  description: 'A security license on file for one employee (docs/rest-api.md, Security license).',
  ...scopedNode('License', DEVELOPER_ONLY, loadLicenses, (license) => license.securityLicenseId),
  fields: (t) => ({
    securityLicenseId: t.exposeInt('securityLicenseId', SCOPE_CHECKED_ON_ENTRY),
    employeeId: t.exposeInt('employeeId', SCOPE_CHECKED_ON_ENTRY),
    firstName: t.exposeString('firstName', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    lastName: t.exposeString('lastName', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    state: t.exposeString('state', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    licenseNumber: t.exposeString('licenseNumber', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    status: t.exposeString('status', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    expiryDate: t.expose('expiryDate', { ...SCOPE_CHECKED_ON_ENTRY, type: 'DateTime', nullable: true }),
    reminder: t.exposeInt('reminder', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true, description: 'Days before expiry to remind.' }),
    critical: t.exposeBoolean('critical', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    attachmentLink: t.exposeString('attachmentLink', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    licenceSector: t.exposeString('licenceSector', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    isInvalidLicense: t.exposeBoolean('isInvalidLicense', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
    employeeSecurityLicenseInfo: t.field({ ...SCOPE_CHECKED_ON_ENTRY, type: EmployeeSecurityLicenseInfo, resolve: (license) => license }),
  }),
});
