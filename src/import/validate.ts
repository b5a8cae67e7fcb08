import type { Tx } from '../shared/db/knex.js';
import { loadRows, rowsByIds, storedCeiling, storedCompanies, type OwnedKind } from '../repositories/import-tables.js';
import { catalogProblem } from '../webhooks/catalog.js';
import { REFERENCES, type ReferenceTarget, type Section } from './format.js';
import type { FileFacts, ParentKind } from './parse.js';
import { formatPath, type Problems } from './problems.js';
import { TABLES } from './rows.js';

const TARGET_NOUN: Record<ReferenceTarget, string> = { companies: 'company', customers: 'customer', sites: 'site', staff: 'employee' };
const OWNED_NOUN: Record<OwnedKind, string> = { customers: 'customer', staff: 'staff', subscribers: 'subscriber', sites: 'site', licenses: 'license', timesheets: 'timesheet' };
const PARENT_COLUMN: Record<ParentKind, string> = { staff: 'company_id', sites: 'customer_id', customers: 'company_id' };

/** One valid record of a chunk: where it is in the file and its company once imported. */
export type OwnedRecord = { index: number; id: number; company: number | undefined };

/** Which of the ids the file names but does not declare the database holds, per target. */
async function storedTargets(trx: Tx, facts: FileFacts): Promise<Record<ReferenceTarget, Set<number>>> {
  const stored = {} as Record<ReferenceTarget, Set<number>>;
  for (const target of Object.keys(TARGET_NOUN) as ReferenceTarget[]) {
    const elsewhere = new Set<number>();
    for (const ref of facts.references) if (ref.target === target && !facts.ids[target].has(ref.id)) elsewhere.add(ref.id);
    for (const id of facts.laterReferences[target]) if (!facts.ids[target].has(id)) elsewhere.add(id);
    stored[target] = new Set((await loadRows(trx, TABLES[target].table, TABLES[target].idColumn, elsewhere)).keys());
  }
  return stored;
}

/**
 * Every record but a company belongs to one company, named by its first reference or through it.
 * Reads are scoped by company, so a stored record keeps its own (moving it would hand it, and all
 * that hangs from it, to another tenant), and a timesheet's site and employee are of one company.
 * Both are judged after the import: the file's record where it has one, the stored one otherwise.
 */
async function companyChecks(trx: Tx, facts: FileFacts, problems: Problems) {
  const stored: Record<ParentKind, Map<number, number>> = { staff: new Map(), sites: new Map(), customers: new Map() };
  // An element the file declares but whose parent is unknown (invalid) does not fall back to the stored one.
  const parent = (kind: ParentKind, id: number | undefined) =>
    id === undefined ? undefined : facts.ids[kind].has(id) ? facts.parents[kind].get(id) : stored[kind].get(id);
  const load = async (kind: ParentKind, ids: Iterable<number | undefined>) => {
    const wanted = [...ids].filter((id): id is number => id !== undefined && !facts.ids[kind].has(id));
    for (const [id, row] of await loadRows(trx, kind, 'id', wanted)) stored[kind].set(id, Number(row[PARENT_COLUMN[kind]]));
  };
  const siteCompany = (siteId: number | undefined) => parent('customers', parent('sites', siteId));
  await load('staff', facts.laterReferences.staff);
  await load('sites', facts.laterReferences.sites);
  await load('customers', [...facts.parents.sites.values(), ...[...facts.laterReferences.sites].map((id) => parent('sites', id))]);

  return {
    /** The company a valid record of the file belongs to once imported; undefined for a company or when unknown. */
    companyOf(section: Section, record: Record<string, unknown>): number | undefined {
      if (section === 'companies') return undefined;
      const owner = record[REFERENCES[section][0]!.field] as number;
      if (section === 'sites') return parent('customers', owner);
      if (section === 'licenses') return parent('staff', owner);
      return section === 'timesheets' ? siteCompany(owner) : owner;
    },
    /** Reports a timesheet whose site and employee are of different companies (after the import). */
    timesheetCompany(index: number, employeeId: number, siteId: number): void {
      const staffCompany = parent('staff', employeeId);
      const company = siteCompany(siteId);
      if (staffCompany === undefined || company === undefined || staffCompany === company) return;
      problems.add(['timesheets', index, 'employeeId'], `staff ${employeeId} belongs to company ${staffCompany}, but site ${siteId} belongs to company ${company}`);
    },
    /** Reports each record of a chunk whose stored company differs from the one the file gives it. */
    async storedCompany(section: Section, records: readonly OwnedRecord[]): Promise<void> {
      if (section === 'companies') return;
      // Ids above every stored one are new records: the common case of a large file needs no read.
      const ceiling = await storedCeiling(trx, TABLES[section].table, TABLES[section].idColumn);
      const known = records.filter((r) => r.company !== undefined && r.id <= ceiling);
      if (known.length === 0) return;
      const before = await storedCompanies(trx, section, known.map((r) => r.id));
      for (const { index, id, company } of known) {
        const was = before.get(id);
        if (was === undefined || was === company) continue;
        problems.add([section, index, REFERENCES[section][0]!.field], `${OWNED_NOUN[section]} ${id} belongs to company ${was} and cannot move to company ${company}`);
      }
    },
  };
}

const pairKey = (subscriberId: number, event: string, eventType: string) => JSON.stringify([subscriberId, event, eventType]);

/**
 * Event filter ids are global, so one stored under another subscriber cannot be taken over;
 * and each subscriber's pairs must stay unique once the file's filters replace stored ones.
 */
async function checkEventFilters(trx: Tx, facts: FileFacts, problems: Problems): Promise<void> {
  const owners = await loadRows(trx, 'event_filters', 'id', facts.eventFilterIds.keys());
  const subscriberIds = new Set(facts.eventFilters.flatMap((f) => (f.subscriberId === null ? [] : [f.subscriberId])));
  const storedPairs = new Map<string, number>();
  for (const row of await rowsByIds(trx, 'event_filters', 'subscriber_id', subscriberIds)) {
    storedPairs.set(pairKey(Number(row.subscriber_id), String(row.event), String(row.event_type)), Number(row.id));
  }
  const seen = new Map<string, (typeof facts.eventFilters)[number]>();
  for (const filter of facts.eventFilters) {
    const { path, id, subscriberId, event, eventType } = filter;
    if (event !== null && eventType !== null) {
      const reason = event.trim() === '' ? 'event must not be blank' : eventType.trim() === '' ? 'eventType must not be blank' : catalogProblem(event, eventType);
      if (reason !== null) problems.add(path, reason);
    }
    const owner = id === null ? undefined : owners.get(id)?.subscriber_id;
    if (owner !== undefined && subscriberId !== null && Number(owner) !== subscriberId) {
      problems.add([...path, 'id'], `event filter ${id} belongs to subscriber ${Number(owner)}`);
    }
    if (subscriberId === null || event === null || eventType === null) continue;
    const key = pairKey(subscriberId, event, eventType);
    const earlier = seen.get(key);
    if (earlier) {
      problems.add(path, `duplicate event/eventType pair for subscriber ${subscriberId} (same as ${formatPath(earlier.path)})`);
      continue;
    }
    seen.set(key, filter);
    const clash = storedPairs.get(key);
    // A stored filter named in the file gets the file's pair, so only the others can clash.
    if (clash !== undefined && clash !== id && !facts.eventFilterIds.has(clash)) {
      problems.add(path, `subscriber ${subscriberId} already has this event/eventType pair as event filter ${clash}`);
    }
  }
}

/**
 * The checks that need the database, made before anything is written: references of the
 * sections checked first, and event filter ownership and uniqueness. What the per-record checks
 * of the second reading need (references of licenses and timesheets, companies) is loaded now
 * and handed back.
 */
export async function validateAgainstDatabase(trx: Tx, facts: FileFacts, problems: Problems) {
  const stored = await storedTargets(trx, facts);
  // Resolves when the file declares the id (even in an invalid element) or the database holds it.
  const reference = (section: Section, index: number, field: string, target: ReferenceTarget, id: number) => {
    if (!facts.ids[target].has(id) && !stored[target].has(id)) problems.add([section, index, field], `${TARGET_NOUN[target]} ${id} does not exist`);
  };
  for (const ref of facts.references) reference(ref.section, ref.index, ref.field, ref.target, ref.id);
  const companies = await companyChecks(trx, facts, problems);
  await checkEventFilters(trx, facts, problems);
  return { reference, ...companies };
}
