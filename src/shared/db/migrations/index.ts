import { readdirSync } from 'node:fs';
import type { Knex } from 'knex';

// Every module of this folder named NNN_name is a migration, run in name order, so a new one
// needs no edit here. They are found beside this module: the TypeScript sources under vitest and
// tsx, the compiled JavaScript in dist/.
const folder = new URL('.', import.meta.url);
const files = new Map(
  readdirSync(folder)
    .filter((file) => /^\d+_\w+\.[jt]s$/.test(file))
    .sort()
    .map((file) => [file.slice(0, -'.ts'.length), file]),
);

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => [...files.keys()],
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const file = files.get(name);
    if (!file) throw new Error(`unknown migration ${name}`);
    return (await import(new URL(file, folder).href)) as Knex.Migration;
  },
};
