import type { Config } from '../config.js';
import { migrateLatest, openDatabase } from '../shared/db/knex.js';
import { firstLineOf } from '../shared/startup-error.js';
import { fileSource, importScanned, ImportValidationError, JsonRefusedError, JsonSyntaxError, scanImport, SpoolError, type ScannedImport } from '../import/import-data.js';
import { formatSummary } from '../import/outcomes.js';
import { emitImportEvents } from '../import/events.js';
import { NO_PROGRESS, progressLine } from './import-progress.js';

export const IMPORT_USAGE = `Usage: shiftgate import FILE

Loads a JSON data file, or one record a line when FILE ends in .ndjson or .jsonl (faster for
large files), as docs/import.md describes: upserts by id, all or nothing.
Shows progress on stderr when it is a terminal; ends with a summary on stdout (records per
kind inserted, updated and unchanged, and the seconds taken).`;

/** `shiftgate import FILE`: 0 when imported, 1 when the file is unreadable or invalid (nothing written). */
export async function importCommand(args: string[], config: Config): Promise<number> {
  const [file, ...rest] = args;
  let misuse: string | undefined;
  if (file === undefined) misuse = 'import needs a FILE';
  else if (file.startsWith('-')) misuse = `unknown option "${file}"`;
  else if (rest.length > 0) misuse = `import takes one FILE (got "${rest[0]}" too)`;
  if (file === undefined || misuse !== undefined) {
    console.error(`shiftgate: ${misuse}\n\n${IMPORT_USAGE}`);
    return 2;
  }
  const started = performance.now();
  // Only a person watching a terminal wants a line rewritten in place; a pipe or log would get clutter.
  const progress = process.stderr.isTTY ? progressLine(process.stderr) : NO_PROGRESS;
  const source = fileSource(file);
  try {
    progress.start();
    let scanned: ScannedImport;
    try {
      // The first reading needs no database: a file that cannot be read or is not JSON leaves it untouched.
      scanned = await scanImport(source);
    } catch (error) {
      progress.end();
      const code = (error as NodeJS.ErrnoException).code;
      if (error instanceof JsonSyntaxError) console.error(`shiftgate import: ${file} is not valid JSON: ${firstLineOf(error)}`);
      else if (error instanceof SpoolError) console.error(`shiftgate import: ${error.message}`);
      // A refusal is a problem line like the others, before the database is opened.
      else if (error instanceof JsonRefusedError) process.stderr.write(`${error.message}\n`);
      else console.error(`shiftgate import: cannot read ${file}${code ? ` (${code})` : `: ${firstLineOf(error)}`}`);
      return 1;
    }
    const db = openDatabase(config);
    try {
      await migrateLatest(db);
      const summary = await importScanned(db, scanned, { onChanges: emitImportEvents, onProgress: progress.report });
      progress.end();
      console.log(formatSummary(summary, (performance.now() - started) / 1000));
      return 0;
    } catch (error) {
      progress.end();
      if (error instanceof ImportValidationError) process.stderr.write(`${error.problems.join('\n')}\n`);
      else console.error(`shiftgate import: failed, nothing was written: ${firstLineOf(error)}`);
      return 1;
    } finally {
      await db.destroy();
    }
  } finally {
    progress.end();
    await source.close();
  }
}
