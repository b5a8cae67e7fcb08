import type { Knex } from 'knex';

/**
 * knex puts the statement in front of a failed query's message (without its bound values, as
 * openDatabase sets compileSqlOnError to false). Logs must carry neither, so each failure is
 * remembered here by a short name of its statement and the driver's own message, which the log
 * serialiser (src/shared/observability/error-description.ts) uses instead.
 */
interface FailedStatement {
  /** The statement's verb and table, e.g. `insert into webhook_deliveries`. */
  statement: string;
  /** What the driver said, without the statement knex put in front of it. */
  driverMessage: string;
}

const failures = new WeakMap<object, FailedStatement>();

const NAMED = /^\s*(insert\s+into|update|delete\s+from|select\b[\s\S]*?\bfrom)\s+[`"]?([\w.]+)/i;

/** A name for a statement that holds none of its values: its verb and table, or its first word. */
function statementName(sql: string): string {
  const named = NAMED.exec(sql);
  if (!named) return (/^\s*(\w+)/.exec(sql)?.[1] ?? 'statement').toLowerCase();
  const verb = named[1]!.toLowerCase();
  return `${verb.startsWith('select') ? 'select from' : verb.replace(/\s+/g, ' ')} ${named[2]!}`;
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
