import type { IncomingMessage } from 'node:http';
import { apiError, badInput } from '../errors.js';
import { isPlainObject } from '../is-plain-object.js';
import { readBody, utf8Body } from './read-body.js';

/**
 * Reads a JSON object body: Content-Type must be application/json (415), the bytes UTF-8 (415),
 * the text must parse (400), it must be an object (400), and only `allowed` keys may appear (400).
 */
export async function readJsonObject(req: IncomingMessage, limit: number, allowed: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const raw = await readBody(req, limit);
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type']?.trim() ?? '')) {
    throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  const text = utf8Body(raw, req.headers['content-type']).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badInput('Request body is not valid JSON');
  }
  if (!isPlainObject(parsed)) throw badInput('Request body must be a JSON object');
  const unknown = Object.keys(parsed).filter((key) => !allowed.has(key));
  if (unknown.length > 0) {
    throw badInput(`Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`);
  }
  return parsed;
}
