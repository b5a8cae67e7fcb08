import type { Db, Tx } from '../shared/db/knex.js';
import { applySource, type ImportProgressSink } from './apply.js';
import type { ImportChanges, ImportSummary } from './outcomes.js';
import { scanImport, type ScannedImport } from './parse.js';
import { ImportValidationError } from './problems.js';
import { memorySource } from './source.js';
import { validateAgainstDatabase } from './validate.js';
import { markTimesheetsModified } from '../repositories/timesheets.js';
import { widenPageCache, writeDirectly } from '../repositories/import-tables.js';

/**
 * SQLite's page cache during an import, in KiB (the default is 2 MB): a large import writes each
 * license into a random place of the two `employee_id` indexes, whose pages a small cache writes
 * out and reads back again and again. It fills only as far as the import writes.
 */
export const IMPORT_PAGE_CACHE_KIB = 48 * 1024;

export { ImportValidationError } from './problems.js';
export { scanImport, type ScannedImport } from './parse.js';
export type { ImportChanges, ImportSummary } from './outcomes.js';
export type { ImportProgress, ImportProgressSink } from './apply.js';
export { fileSource, SpoolError, type ImportSource } from './source.js';
export { JsonRefusedError, JsonSyntaxError } from './json-file.js';
export { SourceChangedError } from './line-file.js';

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
      const { facts, problems } = scanned;
      const checks = await validateAgainstDatabase(trx, facts, problems);
      const outcomes = await applySource(trx, scanned, checks, options.onProgress ?? (() => {}));
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
