import type { ServerResponse } from 'node:http';
import type { Logger } from './observability/logger.js';

/** What is learnt about a request on its way, for its log line and its error answers. Kept on the response. */
export interface RequestContext {
  requestId: string;
  /** The API key the caller authenticated with, once known. */
  keyId?: number;
  /** The app's logger, so renderers of failures log without a global. */
  log: Logger;
}

const CONTEXT = Symbol('shiftgate.request');
type WithContext = ServerResponse & { [CONTEXT]?: RequestContext };

/** Gives a request its context; done once, when the request arrives (src/server/request-entry.ts). */
export function attachRequestContext(res: ServerResponse, context: RequestContext): void {
  (res as WithContext)[CONTEXT] = context;
}

export function requestContextOf(res: ServerResponse): RequestContext | undefined {
  return (res as WithContext)[CONTEXT];
}
