import { badInput } from '../shared/errors.js';
import type { AddressGuard } from './address-guard.js';

const MAX_URI_LENGTH = 2048;

/**
 * A delivery URI must be an absolute http(s) URL without credentials. It is kept exactly as
 * the caller wrote it (a caller comparing what it sent with what it reads back sees no
 * rewriting), so padding with white space is refused rather than silently trimmed.
 */
export function checkDeliveryUri(value: string): string {
  if (value === '' || value.length > MAX_URI_LENGTH) {
    throw badInput(`uri must be an absolute http(s) URL of at most ${MAX_URI_LENGTH} characters`);
  }
  if (value !== value.trim()) throw badInput('uri must not begin or end with white space');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badInput('uri must be an absolute http(s) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw badInput('uri must be an absolute http(s) URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw badInput('uri must not carry credentials');
  }
  return value;
}

/**
 * The full rule for a subscription URI, used by create and update alike (so by REST and
 * GraphQL alike): well-formed as above, and not pointing into a loopback, private,
 * link-local or reserved network (SSRF). Delivery repeats the address check on connect.
 */
export async function checkDeliveryTarget(value: string, guard: AddressGuard): Promise<string> {
  const uri = checkDeliveryUri(value);
  const problem = await guard.hostProblem(new URL(uri));
  if (problem) throw badInput(`uri is not allowed: ${problem}`);
  return uri;
}
