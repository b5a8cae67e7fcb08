import { loadLicenses, type LicenseRecord } from '../../repositories/licenses.js';
import { builder } from '../builder.js';
import { DEVELOPER_ONLY, scopedNodeLoad } from './access.js';

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
  authScopes: DEVELOPER_ONLY,
  id: { resolve: (license: LicenseRecord) => license.securityLicenseId, parse: (id: string) => Number(id) },
  load: scopedNodeLoad('License', DEVELOPER_ONLY, loadLicenses),
  fields: (t) => ({
    securityLicenseId: t.exposeInt('securityLicenseId'),
    employeeId: t.exposeInt('employeeId'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    state: t.exposeString('state', { nullable: true }),
    licenseNumber: t.exposeString('licenseNumber', { nullable: true }),
    status: t.exposeString('status', { nullable: true }),
    expiryDate: t.expose('expiryDate', { type: 'DateTime', nullable: true }),
    reminder: t.exposeInt('reminder', { nullable: true, description: 'Days before expiry to remind.' }),
    critical: t.exposeBoolean('critical', { nullable: true }),
    attachmentLink: t.exposeString('attachmentLink', { nullable: true }),
    licenceSector: t.exposeString('licenceSector', { nullable: true }),
    isInvalidLicense: t.exposeBoolean('isInvalidLicense', { nullable: true }),
    employeeSecurityLicenseInfo: t.field({ type: EmployeeSecurityLicenseInfo, resolve: (license) => license }),
  }),
});
