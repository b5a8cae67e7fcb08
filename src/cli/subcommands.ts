import type { Config } from '../config.js';
import { migrateLatest, openDatabase, type Db } from '../shared/db/knex.js';
import { UsageError } from './args.js';

export type Subcommand = (db: Db, args: string[]) => Promise<number>;

/**
 * Runs `shiftgate <command> <subcommand> …` against a migrated database: an unknown
 * subcommand or bad usage prints the usage and exits 2; the database is always closed.
 */
export async function runSubcommand(
  args: string[],
  config: Config,
  subcommands: Record<string, Subcommand>,
  usage: string,
  command: string,
): Promise<number> {
  const [name, ...rest] = args;
  const action = name === undefined || !Object.hasOwn(subcommands, name) ? undefined : subcommands[name];
  if (!action) {
    console.error(name === undefined ? usage : `shiftgate: unknown ${command} subcommand "${name}"\n\n${usage}`);
    return 2;
  }
  const db = openDatabase(config);
  try {
    await migrateLatest(db);
    return await action(db, rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`shiftgate: ${error.message}\n\n${usage}`);
      return 2;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}
