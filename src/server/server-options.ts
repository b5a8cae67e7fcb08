import type { ServerOptions } from 'node:http';
import type { LimitsConfig } from '../config.js';

/**
 * Node server options that bound header size and slow clients (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS).
 * Node counts the request target towards maxHeaderSize, so it gets room for both limits; each is
 * then checked on its own (request-entry.ts), and what node refuses is sorted out by client-errors.ts.
 */
export function serverOptions(limits: LimitsConfig): ServerOptions {
  return {
    // Node refuses once the count reaches maxHeaderSize: one byte more lets both limits be met exactly.
    maxHeaderSize: limits.maxUrlLength + limits.maxHeaderBytes + 1,
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    // Node checks the two time-outs on this interval (default 30 s): keep it well under them.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}
