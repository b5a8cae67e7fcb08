import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import { CursorCodec } from '../src/shared/pagination/cursor-codec.js';
import { JWT_SECRET, SUB_KEY } from './dataset.js';

/**
 * What the raw baselines (SQLite and PostgreSQL) share: the same credential checks as the
 * gateway (subscription key, HS256 JWT verified by jose with the same claims, API key state
 * cached like the Authenticator does) and byte-identical response bodies. Nothing here is
 * shared with the gateway except the cursor codec, whose output must match bit for bit.
 */

const SECRET = new TextEncoder().encode(JWT_SECRET);
const SUB_KEY_BUFFER = Buffer.from(SUB_KEY);
const KEY_CACHE_MS = 30_000;
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

/** API key state by id, cached for 30 s like the Authenticator; `load` reads the key row. */
export class KeyCache {
  private readonly entries = new Map<number, { principal: Principal | null; until: number }>();

  constructor(private readonly load: (keyId: number) => Row | undefined | Promise<Row | undefined>) {}

  async principalFor(keyId: number): Promise<Principal | null> {
    const now = Date.now();
    const cached = this.entries.get(keyId);
    if (cached && cached.until > now) return cached.principal;
    const row = await this.load(keyId);
    const principal =
      row && row.revoked_at === null
        ? {
            keyType: row.key_type as string,
            companyId: Number(row.company_id),
            customerIds: JSON.parse(row.customer_ids) as number[],
            siteIds: JSON.parse(row.site_ids) as number[],
          }
        : null;
    this.entries.set(keyId, { principal, until: now + KEY_CACHE_MS });
    return principal;
  }
}

export async function authenticate(req: IncomingMessage, keys: KeyCache): Promise<Principal> {
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
  const principal = await keys.principalFor(keyId);
  if (!principal) throw new HttpError(401, 'Access token is invalid or expired');
  return principal;
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

/** A node:http server routing GET paths to `route`, which answers a body or throws HttpError. */
export function rawServer(route: (req: IncomingMessage, path: string, search: URLSearchParams) => Promise<string>): Server {
  return createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const search = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    req.resume();
    route(req, path, search).then(
      (body) => send(res, 200, body),
      (error: unknown) => {
        if (error instanceof HttpError) return sendError(res, error);
        console.error(error);
        if (!res.headersSent) send(res, 500, '{"error":"internal"}');
      },
    );
  });
}
