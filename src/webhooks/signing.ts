import { createHmac } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): secrets are "whsec_" + base64 of the
// key bytes (generated and checked in src/webhooks/signing-secret.ts), and the signed content is "<webhook-id>.<webhook-timestamp>.<body>".
const SECRET_PREFIX = 'whsec_';

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function signature(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
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
