import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import { jwtVerify } from 'jose';
import { CursorCodec } from '../src/shared/pagination/cursor-codec.js';
import { argument, failChild, serveAsChild } from './child-ipc.js';
import { JWT_SECRET, SUB_KEY } from './dataset.js';

/**
 * The limit: the two reads served by a bare node:http handler over prepared better-sqlite3
 * statements, with the same credential checks as the gateway (subscription key, HS256 JWT
 * verified by jose with the same claims, API key state cached like the Authenticator does)
 * and byte-identical response bodies. Nothing here is shared with the gateway except the
 * cursor codec, whose output must match bit for bit.
 */

const SECRET = new TextEncoder().encode(JWT_SECRET);
const SUB_KEY_BUFFER = Buffer.from(SUB_KEY);
const KEY_CACHE_MS = 30_000;
const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i;
const TIMESHEET_PATH = /^\/api\/external\/timesheets\/([0-9]{1,15})\/?$/;
const LICENSES_PATH = /^\/api\/external\/staffs\/([0-9]{1,15})\/licenses\/?$/;

interface Principal {
  keyType: string;
  companyId: number;
  customerIds: number[];
  siteIds: number[];
}

type Row = Record<string, any>;

const db = new Database(argument('db'));
db.pragma('journal_mode = WAL');
let statements = 0;
const prepared = {
  key: db.prepare('SELECT key_type, company_id, customer_ids, site_ids, revoked_at FROM api_keys WHERE id = ?'),
  timesheet: db.prepare(`
    SELECT t.*, si.name AS site_name, c.id AS customer_id, c.name AS customer_name, c.company_id,
           st.staff_id, st.first_name, st.last_name, st.employee_reference_number, st.email, st.mobile,
           st.subcontractor_company
    FROM timesheets t
    JOIN sites si ON si.id = t.site_id
    JOIN customers c ON c.id = si.customer_id
    JOIN staff st ON st.id = t.employee_id
    WHERE t.timesheet_id = ?`),
  licenses: db.prepare(`
    SELECT l.*, s.first_name, s.last_name
    FROM licenses l JOIN staff s ON s.id = l.employee_id
    WHERE l.employee_id = ? AND s.company_id = ?
    ORDER BY l.security_license_id ASC LIMIT ?`),
  staffExists: db.prepare('SELECT 1 FROM staff WHERE id = ? AND company_id = ?'),
};
function get(statement: Database.Statement, ...params: unknown[]): Row | undefined {
  statements++;
  return statement.get(...params) as Row | undefined;
}
function all(statement: Database.Statement, ...params: unknown[]): Row[] {
  statements++;
  return statement.all(...params) as Row[];
}

const cursors = new CursorCodec(SECRET);
const keyCache = new Map<number, { principal: Principal | null; until: number }>();

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MESSAGES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

function send(res: ServerResponse, status: number, payload: string): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
  });
  res.end(payload);
}

function sendError(res: ServerResponse, error: HttpError): void {
  const body = {
    status: { code: error.status, errorMessage: error.message },
    data: null,
    count: 0,
    message: MESSAGES[error.status] ?? 'Error',
    errors: [{ code: error.status, message: error.message }],
  };
  send(res, error.status, JSON.stringify(body));
}

function principalFor(keyId: number): Principal | null {
  const now = Date.now();
  const cached = keyCache.get(keyId);
  if (cached && cached.until > now) return cached.principal;
  const row = get(prepared.key, keyId);
  const principal =
    row && row.revoked_at === null
      ? {
          keyType: row.key_type as string,
          companyId: Number(row.company_id),
          customerIds: JSON.parse(row.customer_ids) as number[],
          siteIds: JSON.parse(row.site_ids) as number[],
        }
      : null;
  keyCache.set(keyId, { principal, until: now + KEY_CACHE_MS });
  return principal;
}

async function authenticate(req: IncomingMessage): Promise<Principal> {
  const subKey = req.headers['external-gh-apim-sub-key'];
  if (typeof subKey !== 'string' || subKey === '') throw new HttpError(401, 'Missing external-gh-apim-sub-key header');
  const given = Buffer.from(subKey);
  if (given.length !== SUB_KEY_BUFFER.length || !timingSafeEqual(given, SUB_KEY_BUFFER)) {
    throw new HttpError(401, 'Invalid external-gh-apim-sub-key header');
  }
  const match = BEARER.exec((req.headers.authorization ?? '').trim());
  if (!match?.[1]) throw new HttpError(401, 'Authorization header must be "Bearer <token>"');
  let keyId: number;
  try {
    const { payload } = await jwtVerify(match[1], SECRET, {
      algorithms: ['HS256'],
      issuer: 'shiftgate',
      audience: 'shiftgate-external-api',
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    keyId = Number(payload.sub);
  } catch {
    throw new HttpError(401, 'Access token is invalid or expired');
  }
  if (!Number.isSafeInteger(keyId) || keyId <= 0) throw new HttpError(401, 'Access token is invalid or expired');
  const principal = principalFor(keyId);
  if (!principal) throw new HttpError(401, 'Access token is invalid or expired');
  return principal;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.parse(value as string));
const bool = (value: unknown) => (value === null || value === undefined ? null : value === 1);

function timesheet(principal: Principal, id: number): string {
  if (principal.keyType !== 'timesheet') throw new HttpError(403, 'This API key type may not access this resource');
  const r = get(prepared.timesheet, id);
  const inScope =
    r !== undefined &&
    r.company_id === principal.companyId &&
    (principal.customerIds.length === 0 || principal.customerIds.includes(r.customer_id)) &&
    (principal.siteIds.length === 0 || principal.siteIds.includes(r.site_id));
  if (!r || !inScope) throw new HttpError(404, `Timesheet ${id} not found`);
  const name = [r.first_name, r.last_name].filter((part) => typeof part === 'string' && part !== '').join(' ');
  const data = {
    timesheetId: r.timesheet_id,
    customerName: r.customer_name,
    customerApiId: r.customer_id,
    siteName: r.site_name,
    siteApiId: r.site_id,
    staffId: r.staff_id,
    staffName: name === '' ? null : name,
    employeeId: String(r.employee_id),
    employeeReferenceNumber: r.employee_reference_number,
    email: r.email,
    mobile: r.mobile,
    subcontractorCompany: r.subcontractor_company,
    entryType: r.entry_type,
    position: r.position,
    service: r.service,
    paygroup: r.paygroup,
    scheduledStartTime: r.scheduled_start_time,
    scheduledEndTime: r.scheduled_end_time,
    timeclockStartTime: r.timeclock_start_time,
    clockInCoordinates: json(r.clock_in_coordinates),
    timeclockBreakStartTime: r.timeclock_break_start_time,
    timeclockBreakEndTime: r.timeclock_break_end_time,
    timeclockEndTime: r.timeclock_end_time,
    clockOutCoordinates: json(r.clock_out_coordinates),
    staffSubmittedTimesheetTimes: json(r.staff_submitted_timesheet_times),
    payStartTime: r.pay_start_time,
    payEndTime: r.pay_end_time,
    payBreakTime: r.pay_break_time,
    invoiceStartTime: r.invoice_start_time,
    invoiceEndTime: r.invoice_end_time,
    invoiceBreakTime: r.invoice_break_time,
    notes: json(r.notes),
    allowances: json(r.allowances),
    status: r.status,
    approvedBy: r.approved_by,
    approvedDateTime: r.approved_date_time,
    customerApprovalStatus: r.customer_approval_status,
    customerApprover: r.customer_approver,
    customerApprovedDateTime: r.customer_approved_date_time,
    lock: bool(r.lock),
    scheduleNotes: json(r.schedule_notes),
  };
  return JSON.stringify({ status: { code: 200, errorMessage: '' }, data, count: 1, message: 'OK', errors: [] });
}

function licensePage(principal: Principal, employeeId: number, search: URLSearchParams): string {
  if (principal.keyType !== 'developer') throw new HttpError(403, 'This API key type may not access this resource');
  const raw = search.get('pageSize');
  const size = raw === null ? 20 : Number(raw);
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new HttpError(400, 'first must be an integer from 1 to 100');
  const rows = all(prepared.licenses, employeeId, principal.companyId, size + 1);
  if (rows.length === 0 && !get(prepared.staffExists, employeeId, principal.companyId)) {
    throw new HttpError(404, `Staff ${employeeId} not found`);
  }
  const more = rows.length > size;
  const data = (more ? rows.slice(0, size) : rows).map((r) => ({
    securityLicenseId: r.security_license_id,
    employeeId: r.employee_id,
    firstName: r.first_name,
    lastName: r.last_name,
    state: r.state,
    licenseNumber: r.license_number,
    status: r.status,
    expiryDate: r.expiry_date,
    reminder: r.reminder,
    critical: bool(r.critical),
    attachmentLink: r.attachment_link,
    licenceSector: r.licence_sector,
    isInvalidLicense: bool(r.is_invalid_license),
    employeeSecurityLicenseInfo: {
      employeeSecurityLicenseId: r.security_license_id,
      currentStatus: r.status,
      expiryDate: r.expiry_date,
      licenceSector: r.licence_sector,
    },
  }));
  const body: Record<string, unknown> = { status: { code: 200, errorMessage: '' }, data, count: data.length, message: 'OK', errors: [] };
  const last = data[data.length - 1];
  if (more && last) {
    const cursor = cursors.encode({ kind: 'license', owner: employeeId, filter: null, size, key: last.securityLicenseId });
    body.nextPageParameter = `after=${cursor}`;
  }
  return JSON.stringify(body);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const search = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  req.resume();
  try {
    let m = TIMESHEET_PATH.exec(path);
    if (m && req.method === 'GET') return send(res, 200, timesheet(await authenticate(req), Number(m[1])));
    m = LICENSES_PATH.exec(path);
    if (m && req.method === 'GET') return send(res, 200, licensePage(await authenticate(req), Number(m[1]), search));
    throw new HttpError(404, `No route for ${req.method} ${path}`);
  } catch (error) {
    if (error instanceof HttpError) return sendError(res, error);
    throw error;
  }
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) send(res, 500, '{"error":"internal"}');
  });
});

serveAsChild(server, () => statements, async () => {
  db.close();
}).catch(failChild);
