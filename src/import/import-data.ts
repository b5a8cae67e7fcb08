import type { Db, Tx } from '../shared/db/knex.js';
import { loadRows, parkEventFilters, storedCeiling, upsertRows, widenPageCache, writeDirectly, type Row } from '../repositories/import-tables.js';
import { markTimesheetsModified } from '../repositories/timesheets.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { generateSigningSecret } from '../webhooks/signing-secret.js';
import { kindOf, REFERENCES, SECTION_NAMES, type Section, type SubscriberInput } from './format.js';
import { ImportOutcomes, type ImportChanges, type ImportSummary } from './outcomes.js';
import { CHECKED_FIRST, idLike, scanImport, validRecord, type ScannedImport } from './parse.js';
import { ImportValidationError } from './problems.js';
import { sameRow, TABLES, toRow, type Entity, type Outcome, type PlannedRow } from './rows.js';
import { memorySource } from './source.js';
import { validateAgainstDatabase, type OwnedRecord } from './validate.js';

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

/** A valid record of the file, with what the company check needs. */
type Valid = OwnedRecord & { record: object };

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
 * The checks against the database (validate.ts), then the second reading, section by section in
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
