import { filterText, keysetConnection, parseFilterText, type KeysetPage } from '../../shared/pagination/keyset.js';
import {
  firstTimesheetsOfSites,
  loadTimesheets,
  timesheetPage,
  type TimesheetFilter,
  type TimesheetRecord,
} from '../../repositories/timesheets.js';
import { builder } from '../builder.js';
import { recordField, SCOPE_CHECKED_ON_ENTRY, TIMESHEET_ONLY, scopedNode } from './access.js';
import { childConnection } from './first-pages.js';
import { Site } from './site.js';

export const Timesheet = builder.loadableNode('Timesheet', {
  description:
    'One timesheet entry (docs/rest-api.md, Timesheet entry). Visible only when its company, customer and site are within the calling key.',
  ...scopedNode('Timesheet', TIMESHEET_ONLY, loadTimesheets, (timesheet) => timesheet.timesheetId),
  fields: (t) => {
    const text = (name: keyof TimesheetRecord & string) => t.exposeString(name as 'status', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true });
    const time = (name: keyof TimesheetRecord & string) =>
      t.expose(name as 'payStartTime', { ...SCOPE_CHECKED_ON_ENTRY, type: 'DateTime', nullable: true });
    const json = (name: keyof TimesheetRecord & string) => t.expose(name as 'notes', { ...SCOPE_CHECKED_ON_ENTRY, type: 'JSON', nullable: true });
    return {
      timesheetId: t.exposeInt('timesheetId', SCOPE_CHECKED_ON_ENTRY),
      customerName: text('customerName'),
      customerApiId: t.exposeInt('customerApiId', SCOPE_CHECKED_ON_ENTRY),
      siteName: text('siteName'),
      siteApiId: t.exposeInt('siteApiId', SCOPE_CHECKED_ON_ENTRY),
      staffId: text('staffId'),
      staffName: text('staffName'),
      employeeId: t.exposeString('employeeId', SCOPE_CHECKED_ON_ENTRY),
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
      payBreakTime: t.exposeInt('payBreakTime', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true, description: 'Minutes.' }),
      invoiceStartTime: time('invoiceStartTime'),
      invoiceEndTime: time('invoiceEndTime'),
      invoiceBreakTime: t.exposeInt('invoiceBreakTime', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true, description: 'Minutes.' }),
      notes: json('notes'),
      allowances: json('allowances'),
      status: text('status'),
      approvedBy: text('approvedBy'),
      approvedDateTime: time('approvedDateTime'),
      customerApprovalStatus: text('customerApprovalStatus'),
      customerApprover: text('customerApprover'),
      customerApprovedDateTime: time('customerApprovedDateTime'),
      lock: t.exposeBoolean('lock', { ...SCOPE_CHECKED_ON_ENTRY, nullable: true }),
      scheduleNotes: json('scheduleNotes'),
    };
  },
});

recordField('timesheet', Timesheet, TIMESHEET_ONLY, {
  arg: 'timesheetId',
  description: 'One timesheet entry within the calling key’s company, customers and sites (timesheet keys).',
});

const TimesheetFilterInput = builder.inputType('TimesheetFilter', {
  description: 'Timesheet list filters; all optional, all given ones must hold. A value outside the key’s scope matches nothing.',
  fields: (t) => ({
    siteId: t.int({ description: 'Entries of this site.' }),
    customerId: t.int({ description: 'Entries of this customer’s sites.' }),
    employeeId: t.int({ description: 'Entries of this employee.' }),
    status: t.string({ description: 'Entries with exactly this status.' }),
    from: t.field({ type: 'DateTime', description: 'Entries scheduled to start at or after this time.' }),
    to: t.field({ type: 'DateTime', description: 'Entries scheduled to start before this time.' }),
    modifiedSince: t.field({
      type: 'DateTime',
      description:
        'Entries created or changed (the entry, or the site, customer or staff member it shows) at or after this time, to the millisecond. For incremental sync: pass the time noted before the previous read (docs/graphql.md, Incremental sync).',
    }),
  }),
});

const FILTER_KEYS = ['siteId', 'customerId', 'employeeId', 'status', 'from', 'to', 'modifiedSince'] as const;

builder.queryField('timesheets', (t) =>
  t.connection({
    type: Timesheet,
    authScopes: TIMESHEET_ONLY,
    description:
      'The timesheet entries the calling key may read (its company, and its customers and sites when it has any), ordered by timesheetId. A cursor keeps the filter and page size it was issued with.',
    args: { filter: t.arg({ type: TimesheetFilterInput }) },
    resolve: (_root, args, context) =>
      keysetConnection({
        args,
        list: { kind: 'timesheet', owner: context.principal.companyId, filter: filterText(args.filter, FILTER_KEYS) },
        codec: context.services.cursors,
        fetch: (page) => timesheetPage(context.services.db, context.principal, parseFilterText<TimesheetFilter>(page.filter), page),
        keyOf: (row) => row.timesheetId,
      }),
  }),
);

const siteTimesheets = childConnection((context, siteIds, [size, filter]: [number, Omit<TimesheetFilter, 'siteId'>]) =>
  firstTimesheetsOfSites(context.services.db, context.principal, siteIds, filter, size),
);

// The same list as Query.timesheets with the site as one more filter, so the timesheet key's
// scope applies unchanged; the site itself stays readable with a developer key.
builder.objectField(Site, 'timesheets', (t) =>
  t.connection({
    type: Timesheet,
    // Nullable, so a developer key's FORBIDDEN here leaves the site it hangs from readable.
    nullable: true,
    authScopes: TIMESHEET_ONLY,
    description:
      'The site’s timesheet entries the calling key may read (timesheet keys), ordered by timesheetId; the filter narrows them further (a different siteId matches nothing).',
    args: { filter: t.arg({ type: TimesheetFilterInput }) },
    resolve: (site, args, context) => {
      const list = { kind: 'site-timesheet', owner: site.siteApiId, filter: filterText({ ...args.filter, siteId: undefined }, FILTER_KEYS) };
      const keyOf = (row: TimesheetRecord) => row.timesheetId;
      if (args.filter?.siteId != null && args.filter.siteId !== site.siteApiId) {
        return keysetConnection({ args, list, codec: context.services.cursors, keyOf, fetch: async () => [] });
      }
      const filterOf = (page: KeysetPage) => parseFilterText<Omit<TimesheetFilter, 'siteId'>>(page.filter);
      return siteTimesheets(context, site.siteApiId, {
        args,
        list,
        keyOf,
        fetch: (page) => timesheetPage(context.services.db, context.principal, { ...filterOf(page), siteId: site.siteApiId }, page),
        readWith: (page) => [page.size, filterOf(page)],
      });
    },
  }),
);
