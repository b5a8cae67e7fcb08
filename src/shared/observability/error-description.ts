import { failedStatementOf } from '../db/failed-statements.js';

/**
 * An error as every log line carries it: its type, code and message, the name of the statement it
 * came from, and what caused it. A failed statement contributes its name and the driver's message,
 * never its text or its bound values (src/shared/db/failed-statements.ts); other properties an
 * error may carry (a driver's `detail`, knex's `sql` and `bindings`) are left out for the same
 * reason.
 */
export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  statement?: string;
  stack?: string;
  cause?: LoggedError;
}

/** How deep a chain of causes is followed. */
const MAX_CAUSES = 3;

/** The error a wrapper stands for: GraphQL keeps the resolver's error as `originalError`. */
function unwrapped(error: unknown): unknown {
  const original = (error as { originalError?: unknown } | null)?.originalError;
  return original instanceof Error ? unwrapped(original) : error;
}

export function loggedError(thrown: unknown, depth = 0): LoggedError {
  const error = unwrapped(thrown);
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const failed = failedStatementOf(error);
  const code = (error as { code?: unknown }).code;
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: error.name,
    message: failed ? failed.driverMessage : error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    ...(failed ? { statement: failed.statement } : {}),
    ...(frames && frames.length > 0 ? { stack: frames.join('\n') } : {}),
    ...(error.cause !== undefined && depth < MAX_CAUSES ? { cause: loggedError(error.cause, depth + 1) } : {}),
  };
}

/** The same, as one line of text for a worker's stderr message. */
export function describeError(thrown: unknown): string {
  return oneLine(loggedError(thrown));
}

function oneLine({ type, message, code, statement, cause }: LoggedError): string {
  const where = statement ? ` [${statement}${code ? `, ${code}` : ''}]` : code ? ` [${code}]` : '';
  return `${type}: ${message}${where}${cause ? `; cause: ${oneLine(cause)}` : ''}`;
}
