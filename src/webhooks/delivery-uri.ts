import { badInput } from '../shared/errors.js';
import type { AddressGuard } from './address-guard.js';

const MAX_URI_LENGTH = 2048;

/**
 * The rule for a subscription URI at create and update (REST and GraphQL): an absolute http(s)
 * URL without credentials, not pointing into a non-public network (SSRF; delivery checks again on
 * connect). It is kept exactly as written, so padding with white space is refused, not trimmed.
 */
export async function checkDeliveryTarget(value: string, guard: AddressGuard): Promise<string> {
  if (value === '' || value.length > MAX_URI_LENGTH) {
    throw badInput(`uri must be an absolute http(s) URL of at most ${MAX_URI_LENGTH} characters`);
  }
  if (value !== value.trim()) throw badInput('uri must not begin or end with white space');
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw badInput('uri must be an absolute http(s) URL');
  if (url.username !== '' || url.password !== '') throw badInput('uri must not carry credentials');
  const problem = await guard.hostProblem(url);
  if (problem) throw badInput(`uri is not allowed: ${problem}`);
  return value;
}
