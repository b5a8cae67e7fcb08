import Database from 'better-sqlite3';
import { argument, failChild, serveAsChild } from './child-ipc.js';
import {
  authenticate,
  HttpError,
  KEY_SQL,
  KeyCache,
  LICENSE_PAGE_SQL,
  licensePageBody,
  licensePageSize,
  LICENSES_PATH,
  rawServer,
  STAFF_EXISTS_SQL,
  TIMESHEET_PATH,
  TIMESHEET_SQL,
  timesheetData,
  timesheetInScope,
  type Principal,
  type Row,
} from './raw-common.js';

/**
 * The limit: the two reads served by a bare node:http handler over prepared better-sqlite3
 * statements, with the same credential checks as the gateway and byte-identical response
 * bodies (raw-common.ts).
 */

const db = new Database(argument('db'));
db.pragma('journal_mode = WAL');
let statements = 0;
const prepared = {
  key: db.prepare(KEY_SQL),
  timesheet: db.prepare(TIMESHEET_SQL),
  licenses: db.prepare(LICENSE_PAGE_SQL),
  staffExists: db.prepare(STAFF_EXISTS_SQL),
};
function get(statement: Database.Statement, ...params: unknown[]): Row | undefined {
  statements++;
  return statement.get(...params) as Row | undefined;
}
function all(statement: Database.Statement, ...params: unknown[]): Row[] {
  statements++;
  return statement.all(...params) as Row[];
}

function timesheet(principal: Principal, id: number): string {
  if (principal.keyType !== 'timesheet') throw new HttpError(403, 'This API key type may not access this resource');
  const r = get(prepared.timesheet, id);
  if (!r || !timesheetInScope(principal, r)) throw new HttpError(404, `Timesheet ${id} not found`);
  return JSON.stringify({ status: { code: 200, errorMessage: '' }, data: timesheetData(r), count: 1, message: 'OK', errors: [] });
}

const keys = new KeyCache((keyId) => get(prepared.key, keyId));

function licensePage(principal: Principal, employeeId: number, search: URLSearchParams): string {
  const size = licensePageSize(principal, search);
  const rows = all(prepared.licenses, employeeId, principal.companyId, size + 1);
  if (rows.length === 0 && !get(prepared.staffExists, employeeId, principal.companyId)) {
    throw new HttpError(404, `Staff ${employeeId} not found`);
  }
  return licensePageBody(rows, employeeId, size);
}

// The key is read synchronously here, so authenticate never answers a promise.
const server = rawServer((req, path, search) => {
  let m = TIMESHEET_PATH.exec(path);
  if (m && req.method === 'GET') return timesheet(authenticate(req.headers, keys) as Principal, Number(m[1]));
  m = LICENSES_PATH.exec(path);
  if (m && req.method === 'GET') return licensePage(authenticate(req.headers, keys) as Principal, Number(m[1]), search);
  throw new HttpError(404, `No route for ${req.method} ${path}`);
});

serveAsChild(server, () => statements, async () => {
  db.close();
}).catch(failChild);
