import pg from 'pg';
import { defaultConfig } from '../src/config.js';
import { argument, failChild, serveAsChild } from './child-ipc.js';
import { authenticate, HttpError, KEY_SQL, KeyCache, LICENSE_PAGE_SQL, licensePageBody, licensePageSize, LICENSES_PATH, rawServer, STAFF_EXISTS_SQL, type Row } from './raw-common.js';

/**
 * The PostgreSQL limit for the license page: bare node:http, a `pg` pool as large as the
 * gateway's, the raw SQLite baseline's SQL as named prepared statements, the same credential
 * checks and byte-identical bodies (raw-common.ts). --db is the connection URL (with the bench
 * schema as search_path).
 */

/** `?` placeholders → `$1, $2, …`. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const pool = new pg.Pool({ connectionString: argument('db'), max: defaultConfig().poolMax });
let statements = 0;
async function rows(name: string, text: string, values: unknown[]): Promise<Row[]> {
  statements++;
  return (await pool.query({ name, text, values })).rows as Row[];
}

const LICENSES = numbered(LICENSE_PAGE_SQL);
const STAFF_EXISTS = numbered(STAFF_EXISTS_SQL);
const keys = new KeyCache(async (keyId) => (await rows('key', numbered(KEY_SQL), [keyId]))[0]);

const server = rawServer(async (req, path, search) => {
  const m = LICENSES_PATH.exec(path);
  if (!m || req.method !== 'GET') throw new HttpError(404, `No route for ${req.method} ${path}`);
  const principal = await authenticate(req.headers, keys);
  const employeeId = Number(m[1]);
  const size = licensePageSize(principal, search);
  const page = await rows('licenses', LICENSES, [employeeId, principal.companyId, size + 1]);
  if (page.length === 0 && (await rows('staff', STAFF_EXISTS, [employeeId, principal.companyId])).length === 0) {
    throw new HttpError(404, `Staff ${employeeId} not found`);
  }
  return licensePageBody(page, employeeId, size);
});

serveAsChild(server, () => statements, () => pool.end()).catch(failChild);
