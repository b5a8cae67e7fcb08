import knex from 'knex';
import { failedStatementOf } from './failed-statements.js';

// knex is CommonJS: its error class is a property of the default export, not a named export.
const { KnexTimeoutError } = knex;

/**
 * Why the database's state, not the statement, kept a statement from running: `busy` when SQLite's
 * write lock stayed taken past busy_timeout, `unavailable` when it cannot be reached or take writes.
 * The statement did nothing and may succeed later, so both APIs answer 503 with Retry-After.
 */
export type Unavailability = 'busy' | 'unavailable';

/** Socket failures on the way to a database server: refused, cut, timed out, no route, no name. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs for a server going away, starting, full or read-only: shutdowns and "cannot
 * connect now" (57P01–57P03), too many connections (53300), disk full (53100), read-only (25006).
 */
const POSTGRES_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53100', '25006']);

/** pg reports a connection ended under a query, or a client broken by one, by its message alone (no code). */
const PG_CONNECTION_LOST = /^Connection terminated|^Client has encountered a connection error/;

function unavailabilityOfCode(code: string): Unavailability | undefined {
  if (code.startsWith('SQLITE_BUSY')) return 'busy';
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_READONLY')) return 'unavailable';
  if (SOCKET_CODES.has(code) || POSTGRES_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'unavailable';
  return undefined;
}

/** The one rule for every way in (REST, GraphQL, the token route, /readyz, the workers). */
export function databaseUnavailability(error: unknown): Unavailability | undefined {
  let current: unknown = error;
  // GraphQL wraps a resolver's error (originalError); a few links at most.
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    // knex's pool gave up waiting for a connection (acquireConnectionTimeout).
    if (current instanceof KnexTimeoutError) return 'unavailable';
    const { code, message, originalError, cause } = current as { code?: unknown; message?: unknown; originalError?: unknown; cause?: unknown };
    const byCode = typeof code === 'string' ? unavailabilityOfCode(code) : undefined;
    if (byCode) return byCode;
    // knex puts the statement in front of a failed query's message; the driver's own comes after it.
    const driverMessage = failedStatementOf(current)?.driverMessage ?? message;
    if (typeof driverMessage === 'string' && PG_CONNECTION_LOST.test(driverMessage)) return 'unavailable';
    current = originalError ?? cause;
  }
  return undefined;
}
