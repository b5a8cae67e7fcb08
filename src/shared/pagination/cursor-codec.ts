import { createHmac, timingSafeEqual } from 'node:crypto';
import { badCursor } from '../errors.js';

/**
 * What a signed cursor remembers (a tampered or foreign one is refused, not followed): its list
 * (kind + owner), the filter and page size it was issued with, and a key. An edge's cursor names
 * its record: `after` it means the records past that one, `before` it those ahead. A cursor with a
 * `side` names one fixed place instead, just after or before the key, whichever way it is used:
 * an empty page has no record to name, only the place it stands.
 */
interface CursorPayload {
  kind: string;
  owner: number;
  filter: string | null;
  size: number;
  key: number;
  side?: 'after' | 'before';
}

const SIDE_CODES = { after: 'a', before: 'b' } as const;

const SIGNATURE_BYTES = 12;
const MAX_CURSOR_LENGTH = 512;

export class CursorCodec {
  private readonly key: Buffer;

  constructor(secret: Uint8Array) {
    this.key = createHmac('sha256', Buffer.from(secret)).update('shiftgate cursor key v1').digest();
  }

  encode(payload: CursorPayload): string {
    const fields: unknown[] = [payload.kind, payload.owner, payload.filter, payload.size, payload.key];
    if (payload.side) fields.push(SIDE_CODES[payload.side]);
    const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
    return `${body}.${this.sign(body).toString('base64url')}`;
  }

  /** Decodes a cursor issued for this kind and owner; anything else is a BAD_CURSOR error. */
  decode(cursor: string, kind: string, owner: number): CursorPayload {
    const invalid = () => badCursor('The page cursor is malformed or was not issued for this list');
    if (cursor.length > MAX_CURSOR_LENGTH) throw invalid();
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid();
    const given = Buffer.from(signature, 'base64url');
    const expected = this.sign(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    const parsed = fieldsOf(body);
    if (!parsed || (parsed.length !== 5 && parsed.length !== 6)) throw invalid();
    const [k, o, f, s, key, sideCode] = parsed;
    if (k !== kind || o !== owner || (f !== null && typeof f !== 'string')) throw invalid();
    if (!Number.isInteger(s) || !Number.isSafeInteger(key)) throw invalid();
    const payload: CursorPayload = { kind, owner, filter: f, size: s as number, key: key as number };
    if (parsed.length === 6) {
      if (sideCode === SIDE_CODES.after) payload.side = 'after';
      else if (sideCode === SIDE_CODES.before) payload.side = 'before';
      else throw invalid();
    }
    return payload;
  }

  private sign(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, SIGNATURE_BYTES);
  }
}

/**
 * The page size a cursor says it was issued with, unchecked (a request's cost is counted before
 * it runs, without the codec's key); decode() refuses a cursor not issued here all the same.
 */
export function pageSizeOfCursor(cursor: string): number | undefined {
  if (cursor.length > MAX_CURSOR_LENGTH) return undefined;
  const size = fieldsOf(cursor.split('.', 1)[0] ?? '')?.[3];
  return Number.isInteger(size) ? (size as number) : undefined;
}

/** The fields a cursor's body holds, its signature unchecked; undefined when it holds none. */
function fieldsOf(body: string): unknown[] | undefined {
  try {
    const fields: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return Array.isArray(fields) ? fields : undefined;
  } catch {
    return undefined;
  }
}
