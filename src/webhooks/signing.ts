import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { setBounded } from '../shared/bounded-map.js';

// Standard Webhooks (https://www.standardwebhooks.com): secrets are "whsec_" + base64 of the key
// bytes (src/webhooks/signing-secret.ts), and the signed content is "<webhook-id>.<webhook-timestamp>.<body>".

/** Secrets whose key bytes are kept decoded, rather than decoded for every signature. */
const KEYS_KEPT = 256;
const keys = new Map<string, KeyObject>();

export function signature(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  let key = keys.get(secret);
  if (key === undefined) {
    key = createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'));
    setBounded(keys, secret, key, KEYS_KEPT);
  }
  // The signed content in two parts: the body (the large one) is not copied into a new string first.
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.`).update(body).digest('base64')}`;
}

/** The webhook-signature header: one signature per live secret, space-separated (rotation). */
export function signatureHeader(secrets: readonly string[], webhookId: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => signature(secret, webhookId, timestampSeconds, body)).join(' ');
}

/** Whether a rotated-out secret still signs: until its expiry, so receivers can switch over without a gap. */
export function previousSecretStillSigns(expiresAt: string | null, nowMs: number): boolean {
  return expiresAt !== null && Date.parse(expiresAt) > nowMs;
}
