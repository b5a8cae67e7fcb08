import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { setBounded } from '../shared/bounded-map.js';

// Standard Webhooks (https://www.standardwebhooks.com): secrets are "whsec_" + base64 of the
// key bytes (generated and checked in src/webhooks/signing-secret.ts), and the signed content is "<webhook-id>.<webhook-timestamp>.<body>".
const SECRET_PREFIX = 'whsec_';

/** Secrets whose key bytes are kept decoded; beyond this many the oldest is decoded again when next used. */
const KEYS_KEPT = 256;
const keys = new Map<string, KeyObject>();

/** The HMAC key of a secret, decoded once rather than for every signature. */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    key = createSecretKey(Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64'));
    setBounded(keys, secret, key, KEYS_KEPT);
  }
  return key;
}

export function signature(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  // The signed content in two parts: the body (the large one) is not copied into a new string first.
  const mac = createHmac('sha256', keyOf(secret)).update(`${webhookId}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** The webhook-signature header: one signature per live secret, space-separated (rotation). */
export function signatureHeader(secrets: readonly string[], webhookId: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => signature(secret, webhookId, timestampSeconds, body)).join(' ');
}

/** Whether a rotated-out secret still signs: until its expiry, so receivers can switch over without a gap. */
export function previousSecretStillSigns(expiresAt: string | null, nowMs: number): boolean {
  return expiresAt !== null && Date.parse(expiresAt) > nowMs;
}

/** The secrets a delivery is signed with now: the current one, and the previous one while it still signs. */
export function liveSigningSecrets(
  subscriber: { signingSecret: string; previousSigningSecret: string | null; previousSecretExpiresAt: string | null },
  nowMs: number,
): string[] {
  const secrets = [subscriber.signingSecret];
  if (subscriber.previousSigningSecret && previousSecretStillSigns(subscriber.previousSecretExpiresAt, nowMs)) {
    secrets.push(subscriber.previousSigningSecret);
  }
  return secrets;
}
