import type { Config } from '../config.js';
import { migrateLatest, openDatabase, type Db } from '../shared/db/knex.js';
import { UsageError } from './args.js';

/** Runs `action` against a migrated database, which is always closed afterwards. */
export async function withMigratedDatabase(config: Config, action: (db: Db) => Promise<number>): Promise<number> {
  const db = openDatabase(config);
  try {
    await migrateLatest(db);
    return await action(db);
  } finally {
    await db.destroy();
  }
}

/** Runs `shiftgate <command> <subcommand> …`; without a subcommand, the usage alone is the error. */
export function runSubcommand(
  args: string[],
  config: Config,
  subcommands: Record<string, (db: Db, args: string[]) => Promise<number>>,
  command: string,
): Promise<number> {
  const [name, ...rest] = args;
  const action = name === undefined || !Object.hasOwn(subcommands, name) ? undefined : subcommands[name];
  if (!action) throw new UsageError(name === undefined ? '' : `unknown ${command} subcommand "${name}"`);
  return withMigratedDatabase(config, (db) => action(db, rest));
}
