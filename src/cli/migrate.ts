import type { Config } from '../config.js';
import { UsageError } from './args.js';
import { withMigratedDatabase } from './subcommands.js';

export const MIGRATE_USAGE = `Usage: shiftgate migrate

Applies pending database migrations; safe to repeat, and to run from several instances at once.`;

export function migrateCommand(args: string[], config: Config): Promise<number> {
  if (args.length > 0) throw new UsageError(`migrate takes no arguments (got "${args[0]}")`);
  return withMigratedDatabase(config, async () => {
    console.log('Database schema is up to date.');
    return 0;
  });
}
