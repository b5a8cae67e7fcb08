/**
 * A start-up that cannot succeed (database unreachable or corrupt, failed migration, port in
 * use, refused configuration). The message is one line for the operator; the CLI prints it
 * and exits 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The first line of an error's message, for one-line reports (driver errors can span many). */
export function firstLineOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').trim();
}
