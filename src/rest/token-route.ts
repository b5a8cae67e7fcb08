import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticator.js';
import { badInput, errorCodeOf } from '../shared/errors.js';
import { readJsonObject } from '../shared/http/read-body.js';
import { refuseMethod, sendFailure, sendJson, successEnvelope } from '../shared/http/respond.js';
import type { TokenAttempts } from '../auth/token-attempts.js';

export const TOKEN_PATH = '/api/external/token/request';

/** The token request's body, for the API description; the handler below enforces the same. */
export const TOKEN_REQUEST_SCHEMA = {
  type: 'object',
  properties: { apiKey: { type: 'string', minLength: 1, description: 'The API key to exchange.' } },
  required: ['apiKey'],
  additionalProperties: false,
} as const;

/** The token request's `data` (src/auth/tokens.ts, AccessToken), for the API description. */
export const TOKEN_DATA_SCHEMA = {
  type: 'object',
  properties: {
    accessToken: { type: 'string', description: 'An HS256 JWT naming the API key; send it as `Authorization: Bearer …`.' },
    tokenType: { const: 'Bearer' },
    expiresIn: { type: 'integer', minimum: 1, description: 'Seconds until the token expires.' },
    expiresAt: { type: 'string', format: 'date-time', description: 'When the token expires.' },
  },
  required: ['accessToken', 'tokenType', 'expiresIn', 'expiresAt'],
  additionalProperties: false,
} as const;

const TOKEN_BODY_FIELDS = new Set(Object.keys(TOKEN_REQUEST_SCHEMA.properties));

/**
 * POST /api/external/token/request {"apiKey": "…"}: exchanges an API key for an access token. The one REST path
 * that is not a GraphQL operation: it runs before a Principal exists, belongs to the auth layer and only shapes the envelope here.
 */
export async function handleTokenRequest(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { authenticator: Authenticator; attempts: TokenAttempts; bodyLimitBytes: number },
): Promise<void> {
  try {
    const client = await deps.attempts.admit(req, res);
    if (req.method !== 'POST') return refuseMethod(req, res, 'POST');
    deps.authenticator.checkSubscriptionKey(req.headers);
    const { apiKey } = await readJsonObject(req, deps.bodyLimitBytes, TOKEN_BODY_FIELDS);
    if (typeof apiKey !== 'string' || apiKey === '') throw badInput('apiKey must be a non-empty string');
    try {
      const token = await deps.authenticator.requestToken(req.headers, apiKey);
      sendJson(res, 200, successEnvelope(200, token));
    } catch (error) {
      // The subscription key passed above, so a refusal here is about the API key.
      if (errorCodeOf(error as { extensions?: Record<string, unknown> }) === 'UNAUTHENTICATED') {
        await deps.attempts.keyRefused(apiKey, client, res);
      }
      throw error;
    }
  } catch (error) {
    req.resume();
    sendFailure(res, error);
  }
}
