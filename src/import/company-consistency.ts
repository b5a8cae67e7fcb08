import type { Tx } from '../shared/db/knex.js';
import { parentIds, sitesOfCustomers, timesheetLinks } from '../repositories/import-tables.js';
import type { FileFacts } from './parse.js';
import type { IdIndex } from './id-index.js';
import type { PathSegment, Problems } from './problems.js';

/**
 * A timesheet ties a site to an employee, and both are scoped by company (site → customer →
 * company, staff → company). Reads scoped to one company show the timesheet with its staff
 * member's details, so a timesheet whose two sides sit in different companies leaks one
 * tenant's staff to another. This rule refuses every import that would leave such a
 * timesheet behind, judged on the state after the import: the file's record where the file
 * has it, the stored one otherwise.
 */

type Parent = 'staff' | 'sites' | 'customers';

const COLUMN: Record<Parent, { table: string; parent: string }> = {
  staff: { table: 'staff', parent: 'company_id' },
  sites: { table: 'sites', parent: 'customer_id' },
  customers: { table: 'customers', parent: 'company_id' },
};

interface FileRecord {
  index: number;
  /** The parent id the file gives; null when the element is invalid and so its value unknown. */
  parent: number | null;
}

/** Parent links before (stored) and after (file over stored) the import, loaded in bulk. */
class Links {
  private readonly stored: Record<Parent, Map<number, number>> = { staff: new Map(), sites: new Map(), customers: new Map() };
  private readonly loaded: Record<Parent, Set<number>> = { staff: new Set(), sites: new Set(), customers: new Set() };
  readonly file: Record<Parent, Map<number, FileRecord>>;

  constructor(
    private readonly trx: Tx,
    facts: FileFacts,
  ) {
    // An element whose parent is unknown (invalid) still declares its id.
    const declared = (ids: IdIndex, parents: Map<number, number>) =>
      new Map([...ids].map(([id, index]) => [id, { index, parent: parents.get(id) ?? null }]));
    this.file = {
      staff: declared(facts.ids.staff, facts.parents.staff),
      sites: declared(facts.ids.sites, facts.parents.sites),
      customers: declared(facts.ids.customers, facts.parents.customers),
    };
  }

  /** Loads the stored parent of every id not loaded yet, 500 ids per query. */
  async load(kind: Parent, ids: Iterable<number | undefined>): Promise<void> {
    const wanted = new Set<number>();
    for (const id of ids) if (id !== undefined && !this.loaded[kind].has(id)) wanted.add(id);
    const { table, parent } = COLUMN[kind];
    const parents = await parentIds(this.trx, table, parent, wanted);
    for (const [id, parentId] of parents) this.stored[kind].set(id, parentId);
    for (const id of wanted) this.loaded[kind].add(id);
  }

  /** Stored sites under the given customers, so a customer's move reaches its sites. */
  async loadSitesOf(customerIds: Iterable<number>): Promise<number[]> {
    const sites = await sitesOfCustomers(this.trx, customerIds);
    for (const [id, customerId] of sites) {
      this.stored.sites.set(id, customerId);
      this.loaded.sites.add(id);
    }
    return [...sites.keys()];
  }

  before(kind: Parent, id: number | undefined): number | undefined {
    return id === undefined ? undefined : this.stored[kind].get(id);
  }

  /** The parent after the import; undefined when unknown (an invalid element or a missing record). */
  after(kind: Parent, id: number | undefined): number | undefined {
    if (id === undefined) return undefined;
    const declared = this.file[kind].get(id);
    if (declared) return declared.parent ?? undefined;
    return this.stored[kind].get(id);
  }

  siteCompanyBefore(siteId: number): number | undefined {
    return this.before('customers', this.before('sites', siteId));
  }

  siteCompanyAfter(siteId: number): number | undefined {
    return this.after('customers', this.after('sites', siteId));
  }

  /** Loads what siteCompanyBefore/After need for these sites. */
  async loadSites(siteIds: Iterable<number>): Promise<void> {
    const ids = [...siteIds];
    await this.load('sites', ids);
    await this.load(
      'customers',
      ids.flatMap((id) => [this.before('sites', id), this.after('sites', id)]),
    );
  }
}

interface Conflict {
  timesheetId: number;
  siteId: number;
  employeeId: number;
  staffCompany: number;
  siteCompany: number;
}

/** One problem per moved record: the lowest conflicting timesheet and how many more there are. */
class MoveReport {
  private readonly byPath = new Map<string, { path: PathSegment[]; first: Conflict; more: number; describe: (c: Conflict) => string }>();

  add(path: PathSegment[], conflict: Conflict, describe: (c: Conflict) => string): void {
    const key = JSON.stringify(path);
    const entry = this.byPath.get(key);
    if (!entry) this.byPath.set(key, { path, first: conflict, more: 0, describe });
    else {
      entry.more += 1;
      if (conflict.timesheetId < entry.first.timesheetId) entry.first = conflict;
    }
  }

  flush(problems: Problems): void {
    for (const { path, first, more, describe } of this.byPath.values()) {
      const tail = more === 0 ? '' : ` (and ${more} more timesheet${more === 1 ? '' : 's'})`;
      problems.add(path, describe(first) + tail);
    }
  }
}

/** Stored timesheets (not restated in the file) of the given employees or sites. */
async function storedTimesheets(
  trx: Tx,
  column: 'employee_id' | 'site_id',
  ids: Iterable<number>,
  skip: IdIndex,
  into: Map<number, { siteId: number; employeeId: number }>,
): Promise<void> {
  for (const [id, link] of await timesheetLinks(trx, column, ids)) {
    if (!skip.has(id)) into.set(id, link);
  }
}

/** Checks one timesheet of the file (valid, so both sides are known) against the state after the import. */
export type TimesheetCompanyCheck = (index: number, employeeId: number, siteId: number) => void;

/**
 * Checks the records the file moves to another company against the stored timesheets still
 * tying them across, and loads what the check of the file's own timesheets needs, which it
 * returns: those are read one at a time later.
 */
export async function checkCompanyConsistency(trx: Tx, facts: FileFacts, problems: Problems): Promise<TimesheetCompanyCheck> {
  const links = new Links(trx, facts);

  // The file's own timesheets: each side from the file, else from the database.
  await links.load('staff', [...links.file.staff.keys(), ...facts.timesheetSides.employeeIds]);
  await links.loadSites([...links.file.sites.keys(), ...facts.timesheetSides.siteIds]);
  await links.load('customers', links.file.customers.keys());
  const checkTimesheet: TimesheetCompanyCheck = (index, employeeId, siteId) => {
    const staffCompany = links.after('staff', employeeId);
    const siteCompany = links.siteCompanyAfter(siteId);
    if (staffCompany === undefined || siteCompany === undefined || staffCompany === siteCompany) return;
    problems.add(
      ['timesheets', index, 'employeeId'],
      `staff ${employeeId} belongs to company ${staffCompany}, but site ${siteId} belongs to company ${siteCompany}`,
    );
  };

  // Records the file moves to another company, which stored timesheets may still tie across.
  const changed = (kind: Parent, id: number) => {
    const before = links.before(kind, id);
    const after = links.after(kind, id);
    return before !== undefined && after !== undefined && before !== after;
  };
  const movedStaff = [...links.file.staff.keys()].filter((id) => changed('staff', id));
  const movedCustomers = [...links.file.customers.keys()].filter((id) => changed('customers', id));
  const sitesOfMovedCustomers = await links.loadSitesOf(movedCustomers);
  await links.loadSites(sitesOfMovedCustomers);
  const movedSites = [...new Set([...links.file.sites.keys(), ...sitesOfMovedCustomers])].filter((id) => {
    const before = links.siteCompanyBefore(id);
    const after = links.siteCompanyAfter(id);
    return before !== undefined && after !== undefined && before !== after;
  });
  if (movedStaff.length === 0 && movedSites.length === 0) return checkTimesheet;

  const timesheets = new Map<number, { siteId: number; employeeId: number }>();
  await storedTimesheets(trx, 'employee_id', movedStaff, facts.ids.timesheets, timesheets);
  await storedTimesheets(trx, 'site_id', movedSites, facts.ids.timesheets, timesheets);
  await links.load('staff', [...timesheets.values()].map((t) => t.employeeId));
  await links.loadSites([...timesheets.values()].map((t) => t.siteId));

  const report = new MoveReport();
  const sorted = [...timesheets].sort(([a], [b]) => a - b);
  for (const [timesheetId, { siteId, employeeId }] of sorted) {
    const staffCompany = links.after('staff', employeeId);
    const siteCompany = links.siteCompanyAfter(siteId);
    if (staffCompany === undefined || siteCompany === undefined || staffCompany === siteCompany) continue;
    const conflict: Conflict = { timesheetId, siteId, employeeId, staffCompany, siteCompany };
    const staff = links.file.staff.get(employeeId);
    if (staff && changed('staff', employeeId)) {
      report.add(['staff', staff.index, 'companyId'], conflict, (c) =>
        `staff ${c.employeeId} moves to company ${c.staffCompany}, but timesheet ${c.timesheetId} still links it to site ${c.siteId} of company ${c.siteCompany}`,
      );
    }
    const site = links.file.sites.get(siteId);
    if (site && changed('sites', siteId) && links.siteCompanyBefore(siteId) !== siteCompany) {
      report.add(['sites', site.index, 'customerId'], conflict, (c) =>
        `site ${c.siteId} moves to company ${c.siteCompany}, but timesheet ${c.timesheetId} still links it to staff ${c.employeeId} of company ${c.staffCompany}`,
      );
    }
    const customerId = links.after('sites', siteId);
    const customer = customerId === undefined ? undefined : links.file.customers.get(customerId);
    if (customer && customerId !== undefined && changed('customers', customerId)) {
      report.add(['customers', customer.index, 'companyId'], conflict, (c) =>
        `customer ${customerId} moves to company ${c.siteCompany}, but timesheet ${c.timesheetId} still links its site ${c.siteId} to staff ${c.employeeId} of company ${c.staffCompany}`,
      );
    }
  }
  report.flush(problems);
  return checkTimesheet;
}
