import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { round } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Ids after every license of the data set, so each imported record is an insert. */
const FIRST_ID = 2_000_001;
const STAFF = 1_200;
const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS'];

export interface ImportResult {
  records: number;
  importSeconds: number;
  importRecordsPerSecond: number;
  rawInsertSeconds: number;
  rawInsertRecordsPerSecond: number;
  /** The line-delimited file's import (docs/import.md, Line-delimited files). */
  importVsRawInsert: number;
  importPeakRssMB: number;
  fileMB: number;
  /** The same licenses as one JSON file. */
  importJsonSeconds: number;
  importJsonVsRawInsert: number;
  importJsonPeakRssMB: number;
  jsonFileMB: number;
}

type ImportFormat = 'json' | 'ndjson';

/** The n-th generated license, in the import format (docs/import.md). */
function license(n: number) {
  const id = FIRST_ID + n;
  const state = STATES[n % STATES.length]!;
  return {
    securityLicenseId: id,
    employeeId: 1 + (n % STAFF),
    state,
    licenseNumber: `${state}-${id}`,
    status: n % 4 === 0 ? 'Expired' : 'Active',
    expiryDate: new Date(Date.UTC(2027, 0, 1) + (n % 1000) * 86_400_000).toISOString(),
    reminder: n % 3 === 0 ? null : 30,
    critical: n % 2 === 0,
    attachmentLink: n % 5 === 0 ? null : `https://files.example.com/licenses/${id}.pdf`,
    licenceSector: n % 7 === 0 ? 'Crowd control' : 'Security',
    isInvalidLicense: n % 11 === 0,
  };
}

/** Writes (once, cached next to the data set) an import file of `count` new licenses, as JSON or one license a line. */
function importFile(dir: string, count: number, format: ImportFormat): string {
  const file = join(dir, `import-licenses-${count}.${format}`);
  if (existsSync(file)) return file;
  const partial = `${file}.partial`;
  const fd = openSync(partial, 'w');
  let buffer = format === 'json' ? '{"licenses":[\n' : '';
  for (let n = 0; n < count; n++) {
    buffer += format === 'json' ? `${n === 0 ? '' : ',\n'}${JSON.stringify(license(n))}` : `{"licenses":${JSON.stringify(license(n))}}\n`;
    if (buffer.length > 1 << 20) {
      writeSync(fd, buffer);
      buffer = '';
    }
  }
  writeSync(fd, format === 'json' ? `${buffer}\n]}\n` : buffer);
  closeSync(fd);
  renameSync(partial, file);
  return file;
}

const LICENSE_INSERT = `INSERT INTO licenses (security_license_id, employee_id, state, license_number, status, expiry_date,
  reminder, critical, attachment_link, licence_sector, is_invalid_license) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The limit: the same rows through one prepared statement in one transaction, no parsing or checks. */
function rawInsert(file: string, count: number): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(LICENSE_INSERT);
  const started = performance.now();
  db.transaction(() => {
    for (let n = 0; n < count; n++) {
      const l = license(n);
      insert.run(l.securityLicenseId, l.employeeId, l.state, l.licenseNumber, l.status, l.expiryDate, l.reminder, l.critical ? 1 : 0, l.attachmentLink, l.licenceSector, l.isInvalidLicense ? 1 : 0);
    }
  })();
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return seconds;
}

/** Runs `shiftgate import` from dist/ as a user would; its peak RSS is written by a preload at exit. */
/** The import is stopped (and the run fails) after this long. */
const IMPORT_LIMIT_MS = 30 * 60_000;

async function runImport(dbFile: string, file: string, rssFile: string): Promise<{ seconds: number; stdout: string }> {
  const preload = `data:text/javascript,${encodeURIComponent(
    `import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));`,
  )}`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', preload, join(ROOT, 'bin/shiftgate.js'), 'import', file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATABASE_URL: `sqlite:${dbFile}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), IMPORT_LIMIT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? -1 : null))));
  clearTimeout(limit);
  const seconds = (performance.now() - started) / 1000;
  if (code === -1 && seconds * 1000 >= IMPORT_LIMIT_MS) throw new Error(`import check failed: not done after ${IMPORT_LIMIT_MS / 60_000} min`);
  if (code !== 0) throw new Error(`import check failed: shiftgate import exited ${code}: ${stderr.slice(0, 500)}`);
  return { seconds, stdout };
}

function checkImported(dbFile: string, count: number): void {
  const db = new Database(dbFile, { readonly: true });
  try {
    const { n } = db.prepare('SELECT count(*) AS n FROM licenses WHERE security_license_id >= ?').get(FIRST_ID) as { n: number };
    if (n !== count) throw new Error(`import check failed: ${n} of ${count} licenses stored`);
    for (const i of [0, Math.floor(count / 2), count - 1]) {
      const l = license(i);
      const row = db.prepare('SELECT employee_id, license_number, expiry_date FROM licenses WHERE security_license_id = ?').get(l.securityLicenseId) as
        | { employee_id: number; license_number: string; expiry_date: string }
        | undefined;
      if (!row || row.employee_id !== l.employeeId || row.license_number !== l.licenseNumber || Date.parse(row.expiry_date) !== Date.parse(l.expiryDate)) {
        throw new Error(`import check failed: license ${l.securityLicenseId} stored as ${JSON.stringify(row)}`);
      }
    }
  } finally {
    db.close();
  }
}

/** One `shiftgate import` of `file` into a private copy of the small data set, its rows checked. */
async function importOnce(smallDb: string, dir: string, file: string, count: number): Promise<{ seconds: number; peakMB: number }> {
  const dbFile = join(dir, `import-${basename(file)}.sqlite`);
  const source = new Database(smallDb, { readonly: true });
  await source.backup(dbFile);
  source.close();
  const rssFile = join(dir, 'max-rss');
  const imported = await runImport(dbFile, file, rssFile);
  if (!imported.stdout.includes(`import complete: ${count} inserted, 0 updated, 0 unchanged`)) {
    throw new Error(`import check failed: unexpected summary: ${imported.stdout.slice(0, 300)}`);
  }
  checkImported(dbFile, count);
  rmSync(dbFile, { force: true });
  return { seconds: imported.seconds, peakMB: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

/**
 * `shiftgate import` of `count` new licenses (generated files, cached), line-delimited and then as
 * one JSON file, each into a private copy of the small data set, against a raw prepared
 * better-sqlite3 insert loop of the same rows in one transaction into another copy. The import's
 * time is the whole command (start to exit).
 */
export async function runImportBench(smallDb: string, cacheDir: string, options: { count: number; log: (line: string) => void }): Promise<ImportResult> {
  const { count, log } = options;
  const lines = importFile(cacheDir, count, 'ndjson');
  const json = importFile(cacheDir, count, 'json');
  const dir = mkdtempSync(join(tmpdir(), 'shiftgate-bench-import-'));
  try {
    const fromLines = await importOnce(smallDb, dir, lines, count);
    const fromJson = await importOnce(smallDb, dir, json, count);
    const source = new Database(smallDb, { readonly: true });
    await source.backup(join(dir, 'raw.sqlite'));
    source.close();
    const rawSeconds = rawInsert(join(dir, 'raw.sqlite'), count);
    checkImported(join(dir, 'raw.sqlite'), count);
    const mb = (file: string) => round(statSync(file).size / (1024 * 1024), 1);
    const result: ImportResult = {
      records: count,
      importSeconds: round(fromLines.seconds, 2),
      importRecordsPerSecond: round(count / fromLines.seconds, 0),
      rawInsertSeconds: round(rawSeconds, 2),
      rawInsertRecordsPerSecond: round(count / rawSeconds, 0),
      importVsRawInsert: round(rawSeconds / fromLines.seconds, 3),
      importPeakRssMB: round(fromLines.peakMB, 1),
      fileMB: mb(lines),
      importJsonSeconds: round(fromJson.seconds, 2),
      importJsonVsRawInsert: round(rawSeconds / fromJson.seconds, 3),
      importJsonPeakRssMB: round(fromJson.peakMB, 1),
      jsonFileMB: mb(json),
    };
    log(
      `import: ${count} licenses line-delimited in ${result.importSeconds} s (${result.importRecordsPerSecond}/s, peak RSS ${result.importPeakRssMB} MB), ` +
        `as JSON in ${result.importJsonSeconds} s (peak RSS ${result.importJsonPeakRssMB} MB), ` +
        `vs raw insert ${result.rawInsertSeconds} s (${result.rawInsertRecordsPerSecond}/s); rows checked`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
