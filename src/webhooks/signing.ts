import { createHmac } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): secrets are "whsec_" + base64 of the
// key bytes (generated and checked in src/import/signing-secret.ts), and the signed content is "<webhook-id>.<webhook-timestamp>.<body>".
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
