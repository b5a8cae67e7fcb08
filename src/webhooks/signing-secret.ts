import { randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `whsec_` + canonical base64 of 24–64 random bytes. */
export function isSigningSecret(value: string): boolean {
  if (!value.startsWith(PREFIX)) return false;
  const encoded = value.slice(PREFIX.length);
  if (!BASE64.test(encoded)) return false;
  const bytes = Buffer.from(encoded, 'base64');
  return bytes.length >= 24 && bytes.length <= 64 && bytes.toString('base64') === encoded;
}

export function generateSigningSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}
