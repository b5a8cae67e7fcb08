/** Lets queued requests run between steps of a long job: better-sqlite3 calls block the event loop while they run. */
export const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
