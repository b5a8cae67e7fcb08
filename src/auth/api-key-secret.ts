import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'sgk_';

/** A new API key: 32 random bytes, so a plain SHA-256 is a sufficient stored form. */
export function generateApiKey(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** The part of a key that may be shown in listings and logs. */
export function apiKeyPrefix(apiKey: string): string {
  return apiKey.slice(0, PREFIX.length + 6);
}
