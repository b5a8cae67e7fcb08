import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Where SQL may be written: the repositories, and the database layer (driver set-up, migrations). */
const SQL_HOMES = ['src/repositories/', 'src/shared/db/'];

/**
 * The ways into the query builder and the drivers: a call on a database handle (`db(…)`,
 * `trx(…)`, `this.db(…)`), raw SQL in any of knex's spellings, the schema and migration
 * builders, and the pg client's own queries. Database handles go by these names throughout
 * src/; a transaction opened around repository calls (`db.transaction(…)`) is not a statement.
 */
const STATEMENT_PATTERNS: RegExp[] = [
  /(?<![\w$.])(?:this\.)?(?:db|trx|tx|knex)\s*\(/,
  /\.(?:db|trx|knex)\s*\(/,
  /\.(?:raw|whereRaw|joinRaw|orderByRaw|fromRaw|havingRaw|selectRaw)\s*\(/,
  /\.(?:schema|migrate)\s*\./,
  /\.query\s*\(\s*['"`]/,
];

function statementLines(text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && STATEMENT_PATTERNS.some((pattern) => pattern.test(line)))
    .map(({ line, number }) => `${number}: ${line}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('every SQL statement lives in src/repositories/ (or the database layer in src/shared/db/)', () => {
  it('no other module of src/ builds or sends a statement', () => {
    const offenders = sourceFiles(join(ROOT, 'src'))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => !SQL_HOMES.some((home) => path.startsWith(home)))
      .flatMap((path) => statementLines(readFileSync(join(ROOT, path), 'utf8')).map((line) => `${path}:${line}`));
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('the check recognises statements in the forms src/ writes them', () => {
    const samples = [
      "const rows = await db('staff').where({ id });",
      "await trx('webhook_events').insert(row);",
      "const found = await this.db('api_keys').first();",
      'return this.trx(table).select(column);',
      "await db.raw('select 1');",
      ".update({ event: trx.raw('? || id', [prefix]) })",
      "query.whereRaw('d.event_id = e.id');",
      'await db.schema.createTable(name, build);',
      "await client.query('listen shiftgate_events');",
    ];
    for (const sample of samples) expect(statementLines(sample), sample).toHaveLength(1);
    const innocent = ["await db.transaction(async (trx) => save(trx, row));", 'const ids = rows.map((row) => Number(row.id));', "logger.info({ db }, 'ready');"];
    for (const sample of innocent) expect(statementLines(sample), sample).toEqual([]);
  });
});
