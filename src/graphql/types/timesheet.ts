import { loadTimesheets, type TimesheetRecord } from '../../repositories/timesheets.js';
import { builder } from '../builder.js';
import { TIMESHEET_ONLY, scopedNodeLoad } from './access.js';

export const Timesheet = builder.loadableNode('Timesheet', {
  description:
    'One timesheet entry (docs/rest-api.md, Timesheet entry). Visible only when its company, customer and site are within the calling key.',
  authScopes: TIMESHEET_ONLY,
  id: { resolve: (timesheet: TimesheetRecord) => timesheet.timesheetId, parse: (id: string) => Number(id) },
  load: scopedNodeLoad('Timesheet', TIMESHEET_ONLY, loadTimesheets),
  fields: (t) => {
    const text = (name: keyof TimesheetRecord & string) => t.exposeString(name as 'status', { nullable: true });
    const time = (name: keyof TimesheetRecord & string) =>
      t.expose(name as 'payStartTime', { type: 'DateTime', nullable: true });
    const json = (name: keyof TimesheetRecord & string) => t.expose(name as 'notes', { type: 'JSON', nullable: true });
    return {
      timesheetId: t.exposeInt('timesheetId'),
      customerName: text('customerName'),
      customerApiId: t.exposeInt('customerApiId'),
      siteName: text('siteName'),
      siteApiId: t.exposeInt('siteApiId'),
      staffId: text('staffId'),
      staffName: text('staffName'),
      employeeId: t.exposeString('employeeId'),
      employeeReferenceNumber: text('employeeReferenceNumber'),
      email: text('email'),
      mobile: text('mobile'),
      subcontractorCompany: text('subcontractorCompany'),
      entryType: text('entryType'),
      position: text('position'),
      service: text('service'),
      paygroup: text('paygroup'),
      scheduledStartTime: time('scheduledStartTime'),
      scheduledEndTime: time('scheduledEndTime'),
      timeclockStartTime: time('timeclockStartTime'),
      clockInCoordinates: json('clockInCoordinates'),
      timeclockBreakStartTime: time('timeclockBreakStartTime'),
      timeclockBreakEndTime: time('timeclockBreakEndTime'),
      timeclockEndTime: time('timeclockEndTime'),
      clockOutCoordinates: json('clockOutCoordinates'),
      staffSubmittedTimesheetTimes: json('staffSubmittedTimesheetTimes'),
      payStartTime: time('payStartTime'),
      payEndTime: time('payEndTime'),
      payBreakTime: t.exposeInt('payBreakTime', { nullable: true, description: 'Minutes.' }),
      invoiceStartTime: time('invoiceStartTime'),
      invoiceEndTime: time('invoiceEndTime'),
      invoiceBreakTime: t.exposeInt('invoiceBreakTime', { nullable: true, description: 'Minutes.' }),
      notes: json('notes'),
      allowances: json('allowances'),
      status: text('status'),
      approvedBy: text('approvedBy'),
      approvedDateTime: time('approvedDateTime'),
      customerApprovalStatus: text('customerApprovalStatus'),
      customerApprover: text('customerApprover'),
      customerApprovedDateTime: time('customerApprovedDateTime'),
      lock: t.exposeBoolean('lock', { nullable: true }),
      scheduleNotes: json('scheduleNotes'),
    };
  },
});

builder.queryField('timesheet', (t) =>
  t.field({
    type: Timesheet,
    nullable: true,
    authScopes: TIMESHEET_ONLY,
    description: 'One timesheet entry within the calling key’s company, customers and sites (timesheet keys).',
    args: { timesheetId: t.arg.int({ required: true }) },
    resolve: (_root, args) => args.timesheetId,
  }),
);
