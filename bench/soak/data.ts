import { randomBytes } from 'node:crypto';
import { demoDataSet } from '../../src/cli/demo-data.js';

/** The pairs the run subscribes to: everything an import can cause. */
export const SOAK_PAIRS = [
  { event: 'timesheet', eventType: 'created' },
  { event: 'timesheet', eventType: 'updated' },
  { event: 'timesheet', eventType: 'approved' },
  { event: 'license', eventType: 'created' },
  { event: 'license', eventType: 'updated' },
] as const;

export type SoakPair = (typeof SOAK_PAIRS)[number];

export const COMPANIES = [1, 2] as const;
export type CompanyId = (typeof COMPANIES)[number];

/** One subscriber per demo company, with a filter per pair and a secret the receivers know. */
export interface SoakSubscriber {
  id: number;
  companyId: CompanyId;
  signingSecret: string;
  filters: { id: number; pair: SoakPair }[];
}

export function soakSubscribers(): SoakSubscriber[] {
  return COMPANIES.map((companyId) => ({
    id: 900 + companyId,
    companyId,
    signingSecret: `whsec_${randomBytes(32).toString('base64')}`,
    filters: SOAK_PAIRS.map((pair, i) => ({ id: 9000 + companyId * 10 + i + 1, pair })),
  }));
}

/** The set-up import: the run's subscribers, on top of the demo data the server loaded. */
export function subscribersFile(subscribers: readonly SoakSubscriber[]) {
  return {
    subscribers: subscribers.map((s) => ({
      id: s.id,
      companyId: s.companyId,
      name: `soak subscriber ${s.id}`,
      signingSecret: s.signingSecret,
      eventFilters: s.filters.map((f) => ({ id: f.id, event: f.pair.event, eventType: f.pair.eventType })),
    })),
  };
}

type Demo = ReturnType<typeof demoDataSet>;
type TimesheetRecord = Demo['timesheets'][number];
type LicenseRecord = Demo['licenses'][number];

const SITE_COMPANY: Record<number, CompanyId> = { 100: 1, 101: 1, 110: 1, 200: 2 };

/**
 * The data the imports keep changing, starting from the demo data set the server loads. Each
 * import belongs to one company (so two imports in flight never touch the same rows): it
 * updates a timesheet's notes or flips another between Pending and Approved, updates a
 * license, and now and then adds a timesheet or a license, so every pair in SOAK_PAIRS keeps
 * happening. Records are sent whole, as an import replaces them.
 */
export class DataChanger {
  private readonly timesheets: TimesheetRecord[];
  private readonly licenses: LicenseRecord[];
  private readonly staff: Demo['staff'];
  private readonly rounds = new Map<CompanyId, number>();
  private nextTimesheetId = 60_001;
  private nextLicenseId = 800_001;
  /** New records of each company's import in flight, known to the reads only once it committed. */
  private readonly pending = new Map<CompanyId, { timesheets: TimesheetRecord[]; licenses: LicenseRecord[] }>();

  constructor() {
    const demo = demoDataSet();
    this.timesheets = demo.timesheets.map((t) => ({ ...t }));
    this.licenses = demo.licenses.map((l) => ({ ...l }));
    this.staff = demo.staff;
  }

  companyOfTimesheet(t: { siteId: number }): CompanyId {
    return SITE_COMPANY[t.siteId] ?? 1;
  }

  companyOfStaff(employeeId: number): CompanyId {
    return (this.staff.find((s) => s.id === employeeId)?.companyId ?? 1) as CompanyId;
  }

  timesheetIds(companyId: CompanyId): number[] {
    return this.timesheets.filter((t) => this.companyOfTimesheet(t) === companyId).map((t) => t.timesheetId);
  }

  staffIds(companyId: CompanyId): number[] {
    return this.staff.filter((s) => s.companyId === companyId).map((s) => s.id);
  }

  /** The next import file of one company; call `committed()` or `abandoned()` once it ran. */
  nextImport(companyId: CompanyId): { timesheets: TimesheetRecord[]; licenses: LicenseRecord[] } {
    const round = (this.rounds.get(companyId) ?? 0) + 1;
    this.rounds.set(companyId, round);
    const at = <T>(items: readonly T[], n: number): T => {
      const item = items[n % items.length];
      if (item === undefined) throw new Error(`company ${companyId} has nothing to change`);
      return item;
    };
    const timesheets: TimesheetRecord[] = [];
    const licenses: LicenseRecord[] = [];
    const created = { timesheets: [] as TimesheetRecord[], licenses: [] as LicenseRecord[] };
    const own = this.timesheets.filter((t) => this.companyOfTimesheet(t) === companyId);
    if (round % 2 === 1) {
      const noted = at(own, round);
      noted.notes = [{ note: `soak round ${round} at ${new Date().toISOString()}` }];
      timesheets.push({ ...noted });
    } else {
      const flipped = at(own, round * 7 + 3);
      const approve = flipped.status !== 'Approved';
      flipped.status = approve ? 'Approved' : 'Pending';
      flipped.approvedBy = approve ? 'Soak Supervisor' : null;
      timesheets.push({ ...flipped });
    }
    if (round % 4 === 0) {
      const fresh = { ...at(own, round), timesheetId: this.nextTimesheetId++, status: 'Pending', approvedBy: null, notes: [{ note: `created in soak round ${round}` }] };
      timesheets.push(fresh);
      created.timesheets.push(fresh);
    }
    const ownLicenses = this.licenses.filter((l) => this.companyOfStaff(l.employeeId) === companyId);
    const changed = at(ownLicenses, round);
    changed.reminder = changed.reminder === 30 ? 31 : 30;
    licenses.push({ ...changed });
    if (round % 6 === 0) {
      const id = this.nextLicenseId++;
      // Far from expiry, so the scheduler adds no expiring/expired events of its own.
      const fresh = { ...at(ownLicenses, round), securityLicenseId: id, licenseNumber: `SOAK-${id}`, expiryDate: '2029-06-01T00:00:00.000Z' };
      licenses.push(fresh);
      created.licenses.push(fresh);
    }
    this.pending.set(companyId, created);
    return { timesheets, licenses };
  }

  committed(companyId: CompanyId): void {
    const created = this.pending.get(companyId);
    if (!created) return;
    this.timesheets.push(...created.timesheets);
    this.licenses.push(...created.licenses);
    this.pending.delete(companyId);
  }

  /** A failed import wrote nothing; its new records must not be read or updated later. */
  abandoned(companyId: CompanyId): void {
    this.pending.delete(companyId);
  }
}
