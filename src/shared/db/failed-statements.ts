import type { Knex } from 'knex';

/**
 * knex puts the whole statement in front of a failed query's message (openDatabase sets
 * compileSqlOnError to false, so at least without its bound values inlined). Logs must carry neither, so each failure is remembered here
 * with a short name of its statement and the driver's own message, for the log serialiser
 * (src/shared/observability/error-description.ts) to use instead of the message knex made.
 */
export interface FailedStatement {
  /** The statement's verb and table, e.g. `insert into webhook_deliveries`. */
  statement: string;
  /** What the driver said, without the statement knex put in front of it. */
  driverMessage: string;
}

const failures = new WeakMap<object, FailedStatement>();

const NAMED = /^\s*(insert\s+into|update|delete\s+from|select\b[\s\S]*?\bfrom)\s+[`"]?([\w.]+)/i;

/** A name for a statement that holds none of its values: its verb and table, or its first word. */
export function statementName(sql: string): string {
  const named = NAMED.exec(sql);
  if (named) {
    const verb = named[1]!.toLowerCase().startsWith('select') ? 'select from' : named[1]!.toLowerCase().replace(/\s+/g, ' ');
    return `${verb} ${named[2]!}`;
  }
  return (/^\s*(\w+)/.exec(sql)?.[1] ?? 'statement').toLowerCase();
}

/** Remembers every statement of this database that fails (transactions' included). */
export function noteFailedStatements(db: Knex): void {
  db.on('query-error', (error: unknown, query: { sql?: unknown }) => {
    if (typeof error !== 'object' || error === null || typeof query?.sql !== 'string') return;
    const message = error instanceof Error ? error.message : '';
    const prefix = `${query.sql} - `;
    // A message knex did not prefix (a time-out) is kept, unless the statement shows in it anyway.
    const driverMessage = message.startsWith(prefix)
      ? message.slice(prefix.length)
      : message.includes(query.sql.slice(0, 30))
        ? 'statement failed'
        : message;
    failures.set(error, { statement: statementName(query.sql), driverMessage });
  });
}

/** The failed statement an error came from, when it came from one. */
export function failedStatementOf(error: unknown): FailedStatement | undefined {
  return typeof error === 'object' && error !== null ? failures.get(error) : undefined;
}
