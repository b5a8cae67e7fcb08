import type { Tx } from '../shared/db/knex.js';
import { parentIds, storedCompanies, type OwnedKind } from '../repositories/import-tables.js';
import type { Section } from './format.js';
import type { FileFacts, ParentKind } from './parse.js';
import { storedCeiling } from './plan.js';
import type { Problems } from './problems.js';

/**
 * Every record but a company belongs to one company: directly (customers, staff, subscribers)
 * or through its parents (a site through its customer, a license through its staff member, a
 * timesheet through its site, an event filter through its subscriber, checked in validate.ts).
 * Reads are scoped by that company, so an import that moved a stored record would hand it, and
 * all that hangs from it (a subscriber's subscriptions and delivery log, a customer's sites),
 * to another tenant: a stored record keeps its company. A timesheet also ties a site to an
 * employee, and reads show it with the staff member's details, so both sides must be of one
 * company. Both rules are judged on the state after the import: the file's record where the
 * file has it, the stored one otherwise.
 */

/** Where a record of each kind names what decides its company. */
const COMPANY_FIELD: Record<OwnedKind, string> = {
  customers: 'companyId',
  staff: 'companyId',
  subscribers: 'companyId',
  sites: 'customerId',
  licenses: 'employeeId',
  timesheets: 'siteId',
};

const NOUN: Record<OwnedKind, string> = {
  customers: 'customer',
  staff: 'staff',
  subscribers: 'subscriber',
  sites: 'site',
  licenses: 'license',
  timesheets: 'timesheet',
};

const STORED_PARENT: Record<ParentKind, { table: string; parent: string }> = {
  staff: { table: 'staff', parent: 'company_id' },
  sites: { table: 'sites', parent: 'customer_id' },
  customers: { table: 'customers', parent: 'company_id' },
};

const isOwned = (section: Section): section is OwnedKind => Object.hasOwn(COMPANY_FIELD, section);

/** Parent links after the import: the file's where it declares the record, the stored ones otherwise. */
class Links {
  private readonly stored: Record<ParentKind, Map<number, number>> = { staff: new Map(), sites: new Map(), customers: new Map() };

  constructor(
    private readonly trx: Tx,
    private readonly facts: FileFacts,
  ) {}

  /** Loads the stored parent of the ids the file does not declare. */
  async load(kind: ParentKind, ids: Iterable<number | undefined>): Promise<void> {
    const wanted = new Set<number>();
    for (const id of ids) if (id !== undefined && !this.facts.ids[kind].has(id)) wanted.add(id);
    const { table, parent } = STORED_PARENT[kind];
    for (const [id, parentId] of await parentIds(this.trx, table, parent, wanted)) this.stored[kind].set(id, parentId);
  }

  /** The parent after the import; undefined when unknown (an invalid element or a missing record). */
  after(kind: ParentKind, id: number | undefined): number | undefined {
    if (id === undefined) return undefined;
    // An element the file declares but whose parent is unknown (invalid) does not fall back to the stored one.
    if (this.facts.ids[kind].has(id)) return this.facts.parents[kind].get(id);
    return this.stored[kind].get(id);
  }

  siteCompany(siteId: number | undefined): number | undefined {
    return this.after('customers', this.after('sites', siteId));
  }
}

/** The company a valid record of the file belongs to once imported; undefined for a company or when unknown. */
export type CompanyOf = (section: Section, record: object) => number | undefined;

/** Reports a timesheet of the file whose site and employee are of different companies (after the import). */
export type TimesheetCompanyCheck = (index: number, employeeId: number, siteId: number) => void;

/** One valid record of a chunk: where it is in the file and its company once imported. */
export interface OwnedRecord {
  index: number;
  id: number;
  company: number | undefined;
}

/** Reports each record of a chunk whose stored company differs from the one the file gives it. */
export type StoredCompanyCheck = (section: Section, records: readonly OwnedRecord[]) => Promise<void>;

export interface CompanyChecks {
  companyOf: CompanyOf;
  timesheetCompany: TimesheetCompanyCheck;
  storedCompany: StoredCompanyCheck;
}

/**
 * Loads the parents of what the file's records name, for the checks made record by record as
 * the file is read a second time.
 */
export async function companyChecks(trx: Tx, facts: FileFacts, problems: Problems): Promise<CompanyChecks> {
  const links = new Links(trx, facts);
  await links.load('staff', facts.laterReferences.staff);
  await links.load('sites', facts.timesheetSides.siteIds);
  await links.load('customers', [...facts.parents.sites.values(), ...[...facts.timesheetSides.siteIds].map((id) => links.after('sites', id))]);

  const companyOf: CompanyOf = (section, record) => {
    const value = record as Record<string, number>;
    switch (section) {
      case 'customers':
      case 'staff':
      case 'subscribers':
        return value.companyId;
      case 'sites':
        return links.after('customers', value.customerId);
      case 'licenses':
        return links.after('staff', value.employeeId);
      case 'timesheets':
        return links.siteCompany(value.siteId);
      default:
        return undefined;
    }
  };

  const timesheetCompany: TimesheetCompanyCheck = (index, employeeId, siteId) => {
    const staffCompany = links.after('staff', employeeId);
    const siteCompany = links.siteCompany(siteId);
    if (staffCompany === undefined || siteCompany === undefined || staffCompany === siteCompany) return;
    problems.add(
      ['timesheets', index, 'employeeId'],
      `staff ${employeeId} belongs to company ${staffCompany}, but site ${siteId} belongs to company ${siteCompany}`,
    );
  };

  const storedCompany: StoredCompanyCheck = async (section, records) => {
    if (!isOwned(section)) return;
    // Ids above every stored one are new records: the common case of a large file needs no read.
    const ceiling = await storedCeiling(trx, section);
    const known = records.filter((r) => r.company !== undefined && r.id <= ceiling);
    if (known.length === 0) return;
    const stored = await storedCompanies(trx, section, known.map((r) => r.id));
    for (const { index, id, company } of known) {
      const before = stored.get(id);
      if (before === undefined || before === company) continue;
      problems.add([section, index, COMPANY_FIELD[section]], `${NOUN[section]} ${id} belongs to company ${before} and cannot move to company ${company}`);
    }
  };

  return { companyOf, timesheetCompany, storedCompany };
}
