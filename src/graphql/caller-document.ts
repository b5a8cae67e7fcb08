/**
 * Whether an operation is one a caller sent to /graphql: yoga puts the request's parameters in
 * the context of every request it serves there. Operations the gateway runs itself (REST routes,
 * webhook and live-event payloads) carry none.
 */
export function isCallerDocument(context: unknown): boolean {
  return typeof context === 'object' && context !== null && 'params' in context;
}
