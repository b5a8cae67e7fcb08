import type { Tx } from '../shared/db/knex.js';
import type { ImportChanges } from './changes.js';
import { emitDataEvents, type RecordChange } from '../webhooks/outbox.js';

const asChange = (outcome: 'inserted' | 'updated' | 'unchanged'): RecordChange['change'] =>
  outcome === 'inserted' ? 'created' : outcome === 'updated' ? 'changed' : 'unchanged';

/** The import's `onChanges` hook: events go into the import's own transaction (the outbox). */
export async function emitImportEvents(trx: Tx, changes: ImportChanges): Promise<void> {
  await emitDataEvents(trx, {
    licenses: changes.licenses.map((c) => ({ id: c.securityLicenseId, change: asChange(c.outcome) })),
    timesheets: changes.timesheets.map((c) => ({
      id: c.timesheetId,
      change: asChange(c.outcome),
      becameApproved: c.becameApproved,
    })),
  });
}
