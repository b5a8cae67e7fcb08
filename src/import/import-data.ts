import type { Db, Tx } from '../shared/db/knex.js';
import { loadRows, parkEventFilters, rowsByIds, storedCeiling, upsertRows, type Row } from '../repositories/import-tables.js';
import { ownerCompanies, type OwnedKind } from '../repositories/organisation.js';
import { widenPageCache, writeDirectly } from '../repositories/import-tables.js';
import { markTimesheetsModified } from '../repositories/timesheets.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { catalogProblem } from '../webhooks/catalog.js';
import { generateSigningSecret } from '../webhooks/signing-secret.js';
import { kindOf, REFERENCES, SECTION_NAMES, type ReferenceTarget, type Section, type SubscriberInput } from './format.js';
import { ImportOutcomes, type ImportChanges, type ImportSummary } from './outcomes.js';
import { CHECKED_FIRST, idLike, scanImport, validRecord, type FileFacts, type ParentKind, type ScannedImport } from './parse.js';
import { formatPath, ImportValidationError, type Problems } from './problems.js';
import { sameRow, TABLES, toRow, type Entity, type Outcome, type PlannedRow } from './rows.js';
import { memorySource } from './source.js';

/**
 * SQLite's page cache during an import, in KiB (the default is 2 MB): a large import writes each
 * license into a random place of the two `employee_id` indexes, whose pages a small cache writes
 * out and reads back again and again. It fills only as far as the import writes.
 */
export const IMPORT_PAGE_CACHE_KIB = 48 * 1024;

export { ImportValidationError, scanImport, type ImportChanges, type ImportSummary, type ScannedImport };
export { fileSource, SpoolError, type ImportSource } from './source.js';
export { JsonRefusedError, JsonSyntaxError } from './json-file.js';
export { SourceChangedError } from './line-file.js';

/**
 * How far an import has got: every record is validated, then compared with the stored row and
 * written unless unchanged, a chunk at a time.
 */
export interface ImportProgress {
  stage: 'validated' | 'compared' | 'written';
  /** Records through this stage so far. */
  done: number;
  /** Records that go through this stage in all. */
  total: number;
}

export type ImportProgressSink = (progress: ImportProgress) => void;

export interface ImportOptions {
  /**
   * Runs inside the import's transaction after every row is written (throwing rolls it all back):
   * where events for created/changed records belong. Changes come in parts of at most 10,000,
   * every timesheet before any license, one call per part.
   */
  onChanges?: (trx: Tx, changes: ImportChanges) => Promise<void>;
  /** Told as the import moves on (never inside a statement); must not throw. */
  onProgress?: ImportProgressSink;
  /** The clock that stamps the timesheet entries the import changes. */
  now?: () => Date;
}

const TARGET_NOUN: Record<ReferenceTarget, string> = { companies: 'company', customers: 'customer', sites: 'site', staff: 'employee' };
const OWNED_NOUN: Record<OwnedKind, string> = { customers: 'customer', staff: 'staff', subscribers: 'subscriber', sites: 'site', licenses: 'license', timesheets: 'timesheet' };
const PARENT_COLUMN: Record<ParentKind, string> = { staff: 'company_id', sites: 'customer_id', customers: 'company_id' };

/** A valid record of the file: where it is, its id and its company once imported (what the company check needs), and the record. */
type Valid = { index: number; id: number; company: number | undefined; record: object };

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
    async storedCompany(section: Section, records: readonly Valid[]): Promise<void> {
      if (section === 'companies') return;
      // Ids above every stored one are new records: the common case of a large file needs no read.
      const ceiling = await storedCeiling(trx, TABLES[section].table, TABLES[section].idColumn);
      const known = records.filter((r) => r.company !== undefined && r.id <= ceiling);
      if (known.length === 0) return;
      const before = await ownerCompanies(trx, section, known.map((r) => r.id));
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
async function validateAgainstDatabase(trx: Tx, facts: FileFacts, problems: Problems) {
  // Which of the ids the file names but does not declare the database holds, per target.
  const stored = {} as Record<ReferenceTarget, Set<number>>;
  for (const target of Object.keys(TARGET_NOUN) as ReferenceTarget[]) {
    const elsewhere = new Set<number>();
    for (const ref of facts.references) if (ref.target === target && !facts.ids[target].has(ref.id)) elsewhere.add(ref.id);
    for (const id of facts.laterReferences[target]) if (!facts.ids[target].has(id)) elsewhere.add(id);
    stored[target] = new Set((await loadRows(trx, TABLES[target].table, TABLES[target].idColumn, elsewhere)).keys());
  }
  // Resolves when the file declares the id (even in an invalid element) or the database holds it.
  const reference = (section: Section, index: number, field: string, target: ReferenceTarget, id: number) => {
    if (!facts.ids[target].has(id) && !stored[target].has(id)) problems.add([section, index, field], `${TARGET_NOUN[target]} ${id} does not exist`);
  };
  for (const ref of facts.references) reference(ref.section, ref.index, ref.field, ref.target, ref.id);
  const companies = await companyChecks(trx, facts, problems);
  await checkEventFilters(trx, facts, problems);
  return { reference, ...companies };
}

/** Records planned and written at once: one `IN (…)` read of the stored rows and a few writes per chunk. */
const CHUNK_RECORDS = 500;

/** Classifies each valid record of a chunk against its stored row; `generatedSecrets` is told of subscribers given a new secret. */
async function planChunk(trx: Tx, entity: Entity, records: readonly object[], generatedSecrets: number[]): Promise<PlannedRow[]> {
  const spec = TABLES[entity];
  const rows = records.map((record) => toRow(spec, record));
  const ids = rows.map((row) => Number(row[spec.idColumn]));
  // Ids above every stored one are new records (the common case of a large file): nothing to read.
  const ceiling = await storedCeiling(trx, spec.table, spec.idColumn);
  const stored = ids.every((id) => id > ceiling) ? new Map<number, Row>() : await loadRows(trx, spec.table, spec.idColumn, ids);
  return rows.map((row, index) => {
    const id = ids[index]!;
    const before = stored.get(id) ?? null;
    if (entity === 'subscribers' && row.signing_secret === null) {
      // Leaving the secret out keeps the one receivers already verify with.
      if (before) row.signing_secret = before.signing_secret;
      else {
        row.signing_secret = generateSigningSecret();
        generatedSecrets.push(id);
      }
    }
    const outcome: Outcome = before === null ? 'inserted' : sameRow(spec, row, before) ? 'unchanged' : 'updated';
    return { id, outcome, row, before };
  });
}

/**
 * The checks against the database, then the second reading, section by section in
 * write order (parents first): licenses and timesheets are checked one element at a time, and
 * every valid record is checked against its stored company, compared with the stored row and
 * written, a chunk at a time. Once any problem is known nothing more is written (the caller rolls
 * back), but the checks go on to report every problem.
 */
async function applySource(trx: Tx, { source, facts, problems }: ScannedImport, report: ImportProgressSink): Promise<ImportOutcomes> {
  const checks = await validateAgainstDatabase(trx, facts, problems);
  const outcomes = new ImportOutcomes();
  const total = facts.elementCount + facts.eventFilters.length;
  let compared = 0;
  let written = 0;
  if (problems.count === 0) report({ stage: 'validated', done: total, total });
  const reportCompared = () => report({ stage: 'compared', done: compared, total });
  const filters: PlannedRow[] = [];
  let sectionReported = false;

  const store = async (entity: Entity, planned: PlannedRow[]) => {
    outcomes.add(entity, planned);
    compared += planned.length;
    // A terminal redraws on every change of stage: the comparison is reported once per section
    // (its first chunk, and its end below), the writing chunk by chunk.
    if (!sectionReported) reportCompared();
    sectionReported = true;
    const { table, idColumn, fields } = TABLES[entity];
    const changed = planned.filter(({ outcome }) => outcome !== 'unchanged');
    // An inserted record was planned against the stored rows of this transaction: none has its id.
    const stored = changed.map(({ outcome }) => outcome !== 'inserted');
    await upsertRows(trx, table, idColumn, changed.map(({ row }) => row), fields.length, stored);
    written += changed.length;
    // The number still to write is not known until every record is compared: count the records
    // not yet compared as if each will be.
    report({ stage: 'written', done: written, total: written + total - compared });
  };

  const flush = async (section: Section, chunk: Valid[]) => {
    if (chunk.length === 0) return;
    // Checked even once the import is refused, so that every record that would move is reported.
    await checks.storedCompany(section, chunk);
    if (problems.count > 0) return;
    const records = chunk.map((valid) => valid.record);
    await store(section, await planChunk(trx, section, records, outcomes.generatedSecrets));
    if (section === 'subscribers') {
      const rows = (records as SubscriberInput[]).flatMap((value) => (value.eventFilters ?? []).map((filter) => ({ ...filter, subscriberId: value.id })));
      filters.push(...(await planChunk(trx, 'eventFilters', rows, outcomes.generatedSecrets)));
    }
  };

  for (const section of SECTION_NAMES) {
    // A section the first reading found no element of would cost a whole reading of the file for nothing.
    if (!facts.sectionsWithElements.has(section)) continue;
    const early = CHECKED_FIRST.has(section);
    const references = early ? [] : REFERENCES[section];
    const { idField } = TABLES[section];
    let chunk: Valid[] = [];
    sectionReported = false;
    await source.elements(section, (element, index) => {
      if (!isPlainObject(element)) {
        if (!early) problems.add([section, index], `expected an object, got ${kindOf(element)}`);
        return;
      }
      const record = validRecord(section, index, element, early ? undefined : problems);
      for (const { field, target } of references) {
        const ref = element[field];
        if (idLike(ref)) checks.reference(section, index, field, target, ref);
      }
      if (record === null) return;
      if (section === 'timesheets') checks.timesheetCompany(index, record.employeeId as number, record.siteId as number);
      chunk.push({ index, id: record[idField] as number, company: checks.companyOf(section, record), record });
      // Only a full chunk returns a promise, so the reading waits once per chunk, not per element.
      if (chunk.length < CHUNK_RECORDS) return;
      const full = chunk;
      chunk = [];
      return flush(section, full);
    });
    await flush(section, chunk);
    if (sectionReported) reportCompared();
  }

  if (problems.count > 0 || filters.length === 0) return outcomes;
  // Two stored filters of one subscriber may swap pairs: those whose pair changes are first
  // parked on a pair no real filter can have, or the unique index would trip halfway.
  const moving = filters.filter(({ outcome, row, before }) => outcome === 'updated' && (row.event !== before?.event || row.event_type !== before?.event_type));
  await parkEventFilters(trx, moving.map(({ id }) => id));
  sectionReported = false;
  await store('eventFilters', filters);
  return outcomes;
}

/**
 * Upserts a parsed import file by id, all or nothing, in one transaction. Records are
 * replaced whole: an optional field left out of the file is stored as null.
 * Throws ImportValidationError, having written nothing, when the file has any problem.
 */
export async function importData(db: Db, input: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  return importScanned(db, await scanImport(memorySource(input)), options);
}

/** importData for a source read once already by scanImport: reads it a second time, in write order. */
export async function importScanned(db: Db, scanned: ScannedImport, options: ImportOptions = {}): Promise<ImportSummary> {
  // On SQLite the transaction holds the write lock from its start (src/shared/db/immediate-sqlite.ts),
  // so the checks and the writes see one state.
  return db.transaction(async (trx) => {
    const restorePageCache = await widenPageCache(trx, IMPORT_PAGE_CACHE_KIB);
    writeDirectly(db, trx);
    try {
      const { problems } = scanned;
      const outcomes = await applySource(trx, scanned, options.onProgress ?? (() => {}));
      if (problems.count > 0) throw new ImportValidationError(problems.lines(), problems.count);
      if (options.onChanges) for (const part of outcomes.changes()) await options.onChanges(trx, part);
      // Last, just before the commit: a reader who notes a time before the commit and reads without
      // seeing these rows finds them with that time, which a stamp taken while the rows were being
      // written could have missed (docs/rest-api.md, Incremental sync).
      await markTimesheetsModified(trx, outcomes.shown, (options.now ?? (() => new Date()))().toISOString());
      return outcomes.summary();
    } finally {
      await restorePageCache();
    }
  });
}
