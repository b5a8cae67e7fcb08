import { badInput } from '../errors.js';

const MAX_URI_LENGTH = 2048;

/** A delivery URI must be an absolute http(s) URL without credentials. Returns it normalised. */
export function checkDeliveryUri(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > MAX_URI_LENGTH) {
    throw badInput(`uri must be an absolute http(s) URL of at most ${MAX_URI_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw badInput('uri must be an absolute http(s) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw badInput('uri must be an absolute http(s) URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw badInput('uri must not carry credentials');
  }
  return url.href;
}
