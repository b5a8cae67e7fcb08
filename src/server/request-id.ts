import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
const MAX_REQUEST_ID_LENGTH = 128;
// Printable, header- and log-safe characters only: a caller's id must not forge log fields.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:\-/+=@]+$/;

/** The caller's x-request-id when it is short and plain, otherwise a fresh UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && value.length > 0 && value.length <= MAX_REQUEST_ID_LENGTH && SAFE_REQUEST_ID.test(value)) {
    return value;
  }
  return randomUUID();
}
