import { isPostgres, type Tx } from '../shared/db/knex.js';

/**
 * PostgreSQL advisory locks held until the transaction ends, for work several instances may start
 * at once, keyed by schema so databases sharing a server do not hold each other off. On SQLite a
 * write transaction already excludes every other writer: these take nothing and report success.
 */
const lockSql = (fn: string) => `select ${fn}(hashtext(current_schema() || ':shiftgate:' || ?::text)) as locked`;

/** Takes the lock named `name` if it is free; false when another transaction holds it. */
export async function tryTransactionLock(trx: Tx, name: string): Promise<boolean> {
  if (!isPostgres(trx)) return true;
  const { rows } = (await trx.raw(lockSql('pg_try_advisory_xact_lock'), [name])) as { rows: { locked: boolean }[] };
  return rows[0]?.locked === true;
}

/** Waits for the lock named `name`. */
export async function waitTransactionLock(trx: Tx, name: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.raw(lockSql('pg_advisory_xact_lock'), [name]);
}
