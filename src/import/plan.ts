import type { Tx } from '../shared/db/knex.js';
import { loadRows, type Row } from '../repositories/import-tables.js';
import type { ImportFile } from './format.js';
import type { ImportProgressSink } from './progress.js';
import { ENTITIES, sameRow, TABLES, toRow, type Entity } from './rows.js';
import { generateSigningSecret } from '../webhooks/signing-secret.js';

/** What an import does to one record, decided by comparing the new row with the stored one. */
export type Outcome = 'inserted' | 'updated' | 'unchanged';

export interface PlannedRow {
  id: number;
  outcome: Outcome;
  row: Row;
  /** The stored row before the import; null for an inserted record. */
  before: Row | null;
}

export interface ImportPlan {
  rows: Record<Entity, PlannedRow[]>;
  /** Subscribers that were given a freshly generated signing secret. */
  generatedSecrets: number[];
}

function recordsOf(file: ImportFile): Record<Entity, object[]> {
  const values = <T>(list: { value: T }[]) => list.map((item) => item.value);
  return {
    companies: values(file.companies),
    customers: values(file.customers),
    sites: values(file.sites),
    staff: values(file.staff),
    licenses: values(file.licenses),
    timesheets: values(file.timesheets),
    subscribers: values(file.subscribers),
    eventFilters: file.subscribers.flatMap(({ value }) =>
      (value.eventFilters ?? []).map((filter) => ({ ...filter, subscriberId: value.id })),
    ),
  };
}

/** Loads the stored rows of every id in the (already validated) file in bulk and classifies each record. */
export async function planImport(trx: Tx, file: ImportFile, report: ImportProgressSink = () => {}): Promise<ImportPlan> {
  const records = recordsOf(file);
  const plan: ImportPlan = { rows: {} as ImportPlan['rows'], generatedSecrets: [] };
  const total = ENTITIES.reduce((sum, entity) => sum + records[entity].length, 0);
  report({ stage: 'validated', done: total, total });
  let compared = 0;
  for (const entity of ENTITIES) {
    const spec = TABLES[entity];
    const newRows = records[entity].map((record) => toRow(spec, record));
    const stored = await loadRows(trx, spec.table, spec.idColumn, newRows.map((row) => Number(row[spec.idColumn])));
    plan.rows[entity] = newRows.map((row) => {
      const id = Number(row[spec.idColumn]);
      const before = stored.get(id) ?? null;
      if (entity === 'subscribers' && row.signing_secret === null) {
        // Leaving the secret out keeps the one receivers already verify with.
        if (before) row.signing_secret = before.signing_secret;
        else {
          row.signing_secret = generateSigningSecret();
          plan.generatedSecrets.push(id);
        }
      }
      const outcome: Outcome = before === null ? 'inserted' : sameRow(spec, row, before) ? 'unchanged' : 'updated';
      return { id, outcome, row, before };
    });
    compared += newRows.length;
    report({ stage: 'compared', done: compared, total });
  }
  return plan;
}
