import type { Config, DatabaseConfig } from '../../config.js';
import { firstLineOf, StartupError } from '../startup-error.js';
import { migrateLatest, openDatabase, pingDatabase, type Db } from './knex.js';

/** Names the database for an operator without its credentials (a PostgreSQL URL may carry a password). */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.client === 'sqlite') return database.filename;
  try {
    const url = new URL(database.connectionString);
    return `(PostgreSQL at ${url.host}${url.pathname})`;
  } catch {
    return '(PostgreSQL)';
  }
}

/** openDatabase, with a failure (e.g. a SQLite directory that cannot be created) as a StartupError. */
export function openDatabaseForStart(config: Pick<Config, 'database' | 'poolMin' | 'poolMax' | 'sqliteBusyTimeoutMs'>): Db {
  try {
    return openDatabase(config);
  } catch (error) {
    throw new StartupError(`cannot open the database ${describeDatabase(config.database)}: ${firstLineOf(error)}`);
  }
}

/**
 * Connects once, then migrates, so an unreachable or corrupt database and a failed migration
 * are reported as what they are rather than as one opaque knex error.
 */
export async function prepareDatabase(db: Db, database: DatabaseConfig): Promise<void> {
  try {
    await pingDatabase(db);
  } catch (error) {
    throw new StartupError(`cannot open the database ${describeDatabase(database)}: ${firstLineOf(error)}`);
  }
  try {
    await migrateLatest(db);
  } catch (error) {
    throw new StartupError(`database migration failed: ${firstLineOf(error)}`);
  }
}
