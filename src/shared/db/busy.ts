/**
 * SQLite's "database is locked": SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT,
 * SQLITE_BUSY_RECOVERY, SQLITE_BUSY_TIMEOUT). Another connection held a lock longer than
 * busy_timeout: the request did nothing and may simply be sent again.
 */
export function isDatabaseBusy(error: unknown): boolean {
  let current: unknown = error;
  // GraphQL wraps a resolver's error (originalError); a few links at most.
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, originalError, cause } = current as { code?: unknown; originalError?: unknown; cause?: unknown };
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
    current = originalError ?? cause;
  }
  return false;
}
