import type { Db, Tx } from '../shared/db/knex.js';
import { changesOf, type ImportChanges } from './changes.js';
import { SECTION_NAMES } from './format.js';
import { parseInput } from './parse.js';
import { planImport } from './plan.js';
import type { ImportProgressSink } from './progress.js';
import { ImportValidationError, Problems } from './problems.js';
import { summarise, type ImportSummary } from './summary.js';
import { validateAgainstDatabase } from './validate.js';
import { writePlan } from './write.js';
import { shownChangesOf } from './shown-changes.js';
import { markTimesheetsModified } from '../repositories/timesheets.js';

export { ImportValidationError } from './problems.js';
export type { ImportSummary } from './summary.js';
export type { ImportProgress, ImportProgressSink } from './progress.js';
export type { ImportChanges, LicenseChange, TimesheetChange } from './changes.js';

export interface ImportOptions {
  /**
   * Runs inside the import's transaction after every row is written; throwing rolls the
   * whole import back. This is where events for created/changed records belong.
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
  const problems = new Problems(SECTION_NAMES);
  const parsed = parseInput(input, problems);
  // On SQLite the transaction holds the write lock from its start (src/shared/db/immediate-sqlite.ts),
  // so the checks and the writes see one state.
  return db.transaction(async (trx) => {
    await validateAgainstDatabase(trx, parsed, problems);
    if (problems.count > 0) throw new ImportValidationError(problems.lines(), problems.count);
    const report = options.onProgress ?? (() => {});
    const plan = await planImport(trx, parsed.file, report);
    await writePlan(trx, plan, report);
    if (options.onChanges) await options.onChanges(trx, changesOf(plan));
    // Last, just before the commit: a reader who notes a time before the commit and reads without
    // seeing these rows finds them with that time, which a stamp taken while the rows were being
    // written could have missed (docs/rest-api.md, Incremental sync).
    await markTimesheetsModified(trx, shownChangesOf(plan), (options.now ?? (() => new Date()))().toISOString());
    return summarise(plan);
  });
}
