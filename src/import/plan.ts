import type { Tx } from '../shared/db/knex.js';
import { loadRows, type Row } from '../repositories/import-tables.js';
import { sameRow, TABLES, toRow, type Entity } from './rows.js';
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

/**
 * Loads the stored rows of one chunk of (already validated) records in bulk and classifies
 * each record. `generatedSecrets` is told of subscribers given a freshly generated secret.
 */
export async function planChunk(trx: Tx, entity: Entity, records: readonly object[], generatedSecrets: number[]): Promise<PlannedRow[]> {
  const spec = TABLES[entity];
  const newRows = records.map((record) => toRow(spec, record));
  const stored = await loadRows(trx, spec.table, spec.idColumn, newRows.map((row) => Number(row[spec.idColumn])));
  return newRows.map((row) => {
    const id = Number(row[spec.idColumn]);
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
