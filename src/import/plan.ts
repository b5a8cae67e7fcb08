import type { Tx } from '../shared/db/knex.js';
import { largestId, loadRows, type Row } from '../repositories/import-tables.js';
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
 * Per import (its transaction) and entity, the largest id stored before the import planned its
 * first record of that entity. A chunk whose ids are all above it holds only new records (an id
 * repeated in the file is a problem, and then nothing is written), so there is nothing to read:
 * the common case of a large file of new records.
 */
const ceilings = new WeakMap<Tx, Map<Entity, number>>();

export async function storedCeiling(trx: Tx, entity: Entity): Promise<number> {
  let known = ceilings.get(trx);
  if (!known) {
    known = new Map();
    ceilings.set(trx, known);
  }
  let ceiling = known.get(entity);
  if (ceiling === undefined) {
    const spec = TABLES[entity];
    ceiling = await largestId(trx, spec.table, spec.idColumn);
    known.set(entity, ceiling);
  }
  return ceiling;
}

/**
 * Loads the stored rows of one chunk of (already validated) records in bulk and classifies
 * each record. `generatedSecrets` is told of subscribers given a freshly generated secret.
 */
export async function planChunk(trx: Tx, entity: Entity, records: readonly object[], generatedSecrets: number[]): Promise<PlannedRow[]> {
  const spec = TABLES[entity];
  const newRows = records.map((record) => toRow(spec, record));
  const ids = newRows.map((row) => Number(row[spec.idColumn]));
  const ceiling = await storedCeiling(trx, entity);
  const stored = ids.every((id) => id > ceiling) ? new Map<number, Row>() : await loadRows(trx, spec.table, spec.idColumn, ids);
  return newRows.map((row, index) => {
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
