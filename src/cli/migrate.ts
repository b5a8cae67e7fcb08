import type { Config } from '../config.js';
import { migrateLatest, openDatabase } from '../shared/db/knex.js';

export const MIGRATE_USAGE = `Usage: shiftgate migrate

Applies pending database migrations; safe to repeat, and to run from several instances at once.`;

export async function migrateCommand(args: string[], config: Config): Promise<number> {
  if (args.length > 0) {
    console.error(`shiftgate: migrate takes no arguments (got "${args[0]}")\n\n${MIGRATE_USAGE}`);
    return 2;
  }
  const db = openDatabase(config);
  try {
    await migrateLatest(db);
    console.log('Database schema is up to date.');
    return 0;
  } finally {
    await db.destroy();
  }
}
