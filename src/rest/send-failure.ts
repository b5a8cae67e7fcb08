import type { ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { errorCodeOf, statusForCode } from '../errors.js';
import { sendJson } from '../http/respond.js';
import { failureEnvelope } from './envelope.js';

/** Sends any thrown error as an envelope; internal errors are logged and masked. */
export function sendFailure(res: ServerResponse, error: unknown, headers: Record<string, string> = {}): void {
  const status = error instanceof GraphQLError ? statusForCode(errorCodeOf(error)) : 500;
  if (status >= 500) console.error('unexpected error', error);
  const message = status >= 500 ? 'Internal server error' : (error as Error).message;
  sendJson(res, status, failureEnvelope(status, [message]), headers);
}
