import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CursorCodec } from '../src/shared/pagination/cursor-codec.js';
import { JWT_SECRET, SUB_KEY } from './dataset.js';

/**
 * What the raw baselines (SQLite and PostgreSQL) and the plain mercurius peer share: the same
 * credential checks as the gateway, done as cheaply as a careful engineer would (HS256 verified
 * with node:crypto, each verified token remembered until it expires, API key state cached for
 * 30 s, as the gateway's TokenIssuer and Authenticator do), and byte-identical response bodies.
 * Nothing here is shared with the gateway except the cursor codec, whose output must match bit
 * for bit.
 */

const SECRET = new TextEncoder().encode(JWT_SECRET);
const SUB_KEY_BUFFER = Buffer.from(SUB_KEY);
const KEY_CACHE_MS = 30_000;
const ISSUER = 'shiftgate';
const AUDIENCE = 'shiftgate-external-api';
/** As many verified tokens as the gateway remembers; past it the oldest is dropped. */
const VERIFIED_TOKENS = 10_000;
const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i;
export const TIMESHEET_PATH = /^\/api\/external\/timesheets\/([0-9]{1,15})\/?$/;
export const LICENSES_PATH = /^\/api\/external\/staffs\/([0-9]{1,15})\/licenses\/?$/;

export interface Principal {
  keyType: string;
  companyId: number;
  customerIds: number[];
  siteIds: number[];
}

export type Row = Record<string, any>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MESSAGES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

export function send(res: ServerResponse, status: number, payload: string): void {
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

export const json = (value: unknown) => (value === null || value === undefined ? null : JSON.parse(value as string));
/** SQLite stores booleans as 0/1, PostgreSQL returns them as booleans. */
export const bool = (value: unknown) => (value === null || value === undefined ? null : value === 1 || value === true);

type KeyRow = Row | undefined;
type Cached = { principal: Principal | null; until: number };

/**
 * API key state by id, cached for 30 s like the Authenticator; `load` reads the key row
 * (synchronously on SQLite, so a refresh there costs no promise).
 */
export class KeyCache {
  private readonly entries = new Map<number, Cached>();
  /** One read refreshes a key for every request that arrives while it is in flight (PostgreSQL). */
  private readonly refreshing = new Map<number, Promise<Principal | null>>();

  constructor(private readonly load: (keyId: number) => KeyRow | Promise<KeyRow>) {}

  principalFor(keyId: number): Principal | null | Promise<Principal | null> {
    const cached = this.entries.get(keyId);
    if (cached && cached.until > Date.now()) return cached.principal;
    const pending = this.refreshing.get(keyId);
    if (pending) return pending;
    const row = this.load(keyId);
    if (!(row instanceof Promise)) return this.store(keyId, row);
    const refresh = row.then((r) => this.store(keyId, r)).finally(() => this.refreshing.delete(keyId));
    this.refreshing.set(keyId, refresh);
    return refresh;
  }

  private store(keyId: number, row: KeyRow): Principal | null {
    const principal =
      row && row.revoked_at === null
        ? {
            keyType: row.key_type as string,
            companyId: Number(row.company_id),
            customerIds: JSON.parse(row.customer_ids) as number[],
            siteIds: JSON.parse(row.site_ids) as number[],
          }
        : null;
    this.entries.set(keyId, { principal, until: Date.now() + KEY_CACHE_MS });
    return principal;
  }
}

const verifiedTokens = new Map<string, { keyId: number; expiresAt: number }>();
const CANONICAL_SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * The key id of a valid token, or null: what the gateway's TokenIssuer accepts (three canonical
 * base64url segments, HS256, issuer, audience, exp in the future, nbf passed, iat at most a minute
 * ahead, a positive integer sub), checked with node:crypto once per token and remembered until
 * the token expires.
 */
function verifiedKeyId(token: string): number | null {
  const known = verifiedTokens.get(token);
  if (known) {
    if (known.expiresAt > Date.now()) return known.keyId;
    verifiedTokens.delete(token);
    return null;
  }
  const segments = token.split('.');
  if (segments.length !== 3 || !segments.every((s) => CANONICAL_SEGMENT.test(s) && Buffer.from(s, 'base64url').toString('base64url') === s)) return null;
  const [header, payload, signature] = segments as [string, string, string];
  const expected = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let head: Row;
  let claims: Row;
  try {
    head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Row;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Row;
  } catch {
    return null;
  }
  const now = Date.now() / 1000;
  const audience = Array.isArray(claims.aud) ? claims.aud.includes(AUDIENCE) : claims.aud === AUDIENCE;
  const keyId = typeof claims.sub === 'string' ? Number(claims.sub) : Number.NaN;
  const valid =
    head.alg === 'HS256' &&
    head.crit === undefined &&
    claims.iss === ISSUER &&
    audience &&
    typeof claims.exp === 'number' &&
    claims.exp > now &&
    (claims.nbf === undefined || (typeof claims.nbf === 'number' && claims.nbf <= now)) &&
    typeof claims.iat === 'number' &&
    claims.iat <= now + 60 &&
    Number.isSafeInteger(keyId) &&
    keyId > 0;
  if (!valid) return null;
  if (verifiedTokens.size >= VERIFIED_TOKENS) verifiedTokens.delete(verifiedTokens.keys().next().value!);
  verifiedTokens.set(token, { keyId, expiresAt: (claims.exp as number) * 1000 });
  return keyId;
}

const refused = (principal: Principal | null): Principal => {
  if (!principal) throw new HttpError(401, 'Access token is invalid or expired');
  return principal;
};

/** The caller's Principal: at once when its token and key are remembered, else a promise. Refusals throw HttpError. */
export function authenticate(headers: IncomingHttpHeaders, keys: KeyCache): Principal | Promise<Principal> {
  const subKey = headers['external-gh-apim-sub-key'];
  if (typeof subKey !== 'string' || subKey === '') throw new HttpError(401, 'Missing external-gh-apim-sub-key header');
  const given = Buffer.from(subKey);
  if (given.length !== SUB_KEY_BUFFER.length || !timingSafeEqual(given, SUB_KEY_BUFFER)) {
    throw new HttpError(401, 'Invalid external-gh-apim-sub-key header');
  }
  const match = BEARER.exec((headers.authorization ?? '').trim());
  if (!match?.[1]) throw new HttpError(401, 'Authorization header must be "Bearer <token>"');
  const keyId = verifiedKeyId(match[1]);
  if (keyId === null) throw new HttpError(401, 'Access token is invalid or expired');
  const principal = keys.principalFor(keyId);
  return principal instanceof Promise ? principal.then(refused) : refused(principal);
}

const cursors = new CursorCodec(SECRET);

/** The license page's size from the query, after the key-type check. */
export function licensePageSize(principal: Principal, search: URLSearchParams): number {
  if (principal.keyType !== 'developer') throw new HttpError(403, 'This API key type may not access this resource');
  const raw = search.get('pageSize');
  const size = raw === null ? 20 : Number(raw);
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new HttpError(400, 'first must be an integer from 1 to 100');
  return size;
}

/**
 * The SQL of the license page (size + 1 rows): the same text on both backends but for the
 * placeholders. The staff check runs only when the page is empty.
 */
export const LICENSE_PAGE_SQL = `
    SELECT l.*, s.first_name, s.last_name
    FROM licenses l JOIN staff s ON s.id = l.employee_id
    WHERE l.employee_id = ? AND s.company_id = ?
    ORDER BY l.security_license_id ASC LIMIT ?`;
export const STAFF_EXISTS_SQL = 'SELECT 1 FROM staff WHERE id = ? AND company_id = ?';
export const KEY_SQL = 'SELECT key_type, company_id, customer_ids, site_ids, revoked_at FROM api_keys WHERE id = ?';

/** One timesheet with its site, customer and staff (SQLite's placeholders). */
export const TIMESHEET_SQL = `
    SELECT t.*, si.name AS site_name, c.id AS customer_id, c.name AS customer_name, c.company_id,
           st.staff_id, st.first_name, st.last_name, st.employee_reference_number, st.email, st.mobile,
           st.subcontractor_company
    FROM timesheets t
    JOIN sites si ON si.id = t.site_id
    JOIN customers c ON c.id = si.customer_id
    JOIN staff st ON st.id = t.employee_id
    WHERE t.timesheet_id = ?`;

/** Whether the key may see the timesheet row: its company, and its customers and sites when it names any. */
export function timesheetInScope(principal: Principal, r: Row): boolean {
  return (
    r.company_id === principal.companyId &&
    (principal.customerIds.length === 0 || principal.customerIds.includes(r.customer_id)) &&
    (principal.siteIds.length === 0 || principal.siteIds.includes(r.site_id))
  );
}

/** The contract's timesheet object (REST `data`, GraphQL `timesheet`) from a TIMESHEET_SQL row. */
export function timesheetData(r: Row): Record<string, unknown> {
  const name = [r.first_name, r.last_name].filter((part) => typeof part === 'string' && part !== '').join(' ');
  return {
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
}

/** The page body from size + 1 rows. */
export function licensePageBody(rows: Row[], employeeId: number, size: number): string {
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

/**
 * A node:http server routing GET paths to `route`, which answers a body (at once, or a promise
 * of one) or throws HttpError.
 */
export function rawServer(route: (req: IncomingMessage, path: string, search: URLSearchParams) => string | Promise<string>): Server {
  const fail = (res: ServerResponse, error: unknown) => {
    if (error instanceof HttpError) return sendError(res, error);
    console.error(error);
    if (!res.headersSent) send(res, 500, '{"error":"internal"}');
  };
  return createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const search = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    req.resume();
    try {
      const body = route(req, path, search);
      if (typeof body === 'string') send(res, 200, body);
      else body.then((text) => send(res, 200, text), (error: unknown) => fail(res, error));
    } catch (error) {
      fail(res, error);
    }
  });
}
