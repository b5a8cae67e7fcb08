import type { Tx } from '../shared/db/knex.js';
import { kindOf, REFERENCES, SECTION_NAMES, SECTIONS, type Section } from './format.js';
import { CHECKED_FIRST, idLike, reportIssues } from './parse.js';
import { planChunk, type PlannedRow } from './plan.js';
import type { ImportProgressSink } from './progress.js';
import type { Problems } from './problems.js';
import type { ImportSource } from './source.js';
import type { ElementChecks } from './validate.js';
import type { OwnedRecord } from './company-consistency.js';
import type { ImportOutcomes } from './outcomes.js';
import { parkChangedEventFilters, writeChunk } from './write.js';
import type { Entity } from './rows.js';
import type { SubscriberInput } from './format.js';
import { isPlainObject } from '../shared/is-plain-object.js';

/**
 * Records planned and written at once: one `IN (…)` read of the stored rows and a few writes
 * per chunk, and few enough that a large file is never held.
 */
const CHUNK_RECORDS = 500;

const LATER_REFERENCES = REFERENCES.filter((ref) => !CHECKED_FIRST.has(ref.section));

/** A valid record of the file, with what the company check needs. */
interface Valid extends OwnedRecord {
  record: object;
}

interface Progress {
  total: number;
  compared: number;
  written: number;
  report: ImportProgressSink;
}

/**
 * The second reading, section by section in write order (parents first, whatever order the
 * file lists them in; only the `sections` that have elements): licenses and timesheets are checked one element at a time, and every
 * valid record is compared with the stored row and written, a chunk at a time, inside the
 * caller's transaction. Every valid record is checked against the company of its stored
 * version. Once any problem is known nothing more is written (the caller rolls back), but the
 * reading and the checks go on so that every problem is reported.
 */
export async function applySource(
  trx: Tx,
  source: ImportSource,
  sections: ReadonlySet<Section>,
  checks: ElementChecks,
  problems: Problems,
  outcomes: ImportOutcomes,
  progress: Progress,
): Promise<void> {
  const filters: PlannedRow[] = [];
  let sectionReported = false;

  const flush = async (section: Section, chunk: Valid[]) => {
    if (chunk.length === 0) return;
    // Checked even once the import is refused, so that every record that would move is reported.
    await checks.storedCompany(section, chunk);
    if (problems.count > 0) return;
    const records = chunk.map((valid) => valid.record);
    const planned = await planChunk(trx, section, records, outcomes.generatedSecrets);
    outcomes.add(section, planned);
    progress.compared += records.length;
    // A terminal redraws on every change of stage: the comparison is reported once per section
    // (its first chunk, and its end below), the writing chunk by chunk.
    if (!sectionReported) progress.report({ stage: 'compared', done: progress.compared, total: progress.total });
    sectionReported = true;
    progress.written += await writeChunk(trx, section, planned);
    // The number still to write is not known until every record is compared: count the
    // records not yet compared as if each will be.
    progress.report({ stage: 'written', done: progress.written, total: progress.written + progress.total - progress.compared });
    if (section === 'subscribers') {
      const subscribers = records as SubscriberInput[];
      const rows = subscribers.flatMap((value) => (value.eventFilters ?? []).map((filter) => ({ ...filter, subscriberId: value.id })));
      filters.push(...(await planChunk(trx, 'eventFilters', rows, outcomes.generatedSecrets)));
    }
  };

  for (const section of SECTION_NAMES) {
    // A section the first reading found no element of would cost a whole reading of the file for nothing.
    if (!sections.has(section)) continue;
    const early = CHECKED_FIRST.has(section);
    const schema = SECTIONS[section].schema;
    const references = LATER_REFERENCES.filter((ref) => ref.section === section);
    const idField = SECTIONS[section].idField;
    let records: Valid[] = [];
    sectionReported = false;
    await source.elements(section, (element, index) => {
      if (!isPlainObject(element)) {
        if (!early) problems.add([section, index], `expected an object, got ${kindOf(element)}`);
        return;
      }
      const result = schema.safeParse(element);
      if (!early) {
        if (!result.success) reportIssues(result.error.issues, [section, index], problems);
        for (const { field, target } of references) {
          const ref = element[field];
          if (idLike(ref)) checks.reference(section, index, field, target, ref);
        }
        if (result.success && section === 'timesheets') {
          const value = result.data as { employeeId: number; siteId: number };
          checks.timesheetCompany(index, value.employeeId, value.siteId);
        }
      }
      if (!result.success) return;
      const record: object = result.data;
      const id = (record as Record<string, number>)[idField]!;
      records.push({ index, id, company: checks.companyOf(section, record), record });
      // Only a full chunk returns a promise, so the reading waits once per chunk, not per element.
      if (records.length < CHUNK_RECORDS) return;
      const full = records;
      records = [];
      return flush(section, full);
    });
    await flush(section, records);
    if (sectionReported) progress.report({ stage: 'compared', done: progress.compared, total: progress.total });
  }

  if (problems.count > 0 || filters.length === 0) return;
  await parkChangedEventFilters(trx, filters);
  outcomes.add('eventFilters', filters);
  progress.compared += filters.length;
  progress.report({ stage: 'compared', done: progress.compared, total: progress.total });
  progress.written += await writeChunk(trx, 'eventFilters' satisfies Entity, filters);
  progress.report({ stage: 'written', done: progress.written, total: progress.written + progress.total - progress.compared });
}
