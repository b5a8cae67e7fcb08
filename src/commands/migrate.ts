import type { Config } from '../config.js';
import { migrateLatest, openDatabase } from '../db/knex.js';

export async function migrateCommand(_args: string[], config: Config): Promise<number> {
  const db = openDatabase(config);
  try {
    await migrateLatest(db);
    console.log('Database schema is up to date.');
    return 0;
  } finally {
    await db.destroy();
  }
}
