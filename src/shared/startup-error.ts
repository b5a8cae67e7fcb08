import { loggedError } from './observability/error-description.js';

/**
 * A start-up that cannot succeed (database unreachable or corrupt, failed migration, port in
 * use, refused configuration). The message is one line for the operator; the CLI prints it
 * and exits 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * The first line of an error's message, for one-line reports (driver errors can span many); a
 * failed statement's message without the statement (src/shared/observability/error-description.ts).
 */
export function firstLineOf(error: unknown): string {
  const { message } = loggedError(error);
  return (message.split('\n')[0] ?? '').trim();
}
