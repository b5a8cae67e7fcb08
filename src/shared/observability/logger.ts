import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Paths pino blanks out wherever they appear in a log object. Request lines never carry
 * headers or bodies, so this is the second line of defence: an error or a debug call that
 * happens to hold credentials still cannot print them.
 */
export const REDACTED_PATHS = [
  'authorization',
  'apiKey',
  'accessToken',
  'signingSecret',
  'signing_secret',
  'previousSigningSecret',
  'previous_signing_secret',
  'secret',
  'password',
  '"external-gh-apim-sub-key"',
  '*.authorization',
  '*.apiKey',
  '*.accessToken',
  '*.signingSecret',
  '*.signing_secret',
  '*.previous_signing_secret',
  '*.secret',
  '*.password',
  '*["external-gh-apim-sub-key"]',
  'req.headers.authorization',
  'req.headers["external-gh-apim-sub-key"]',
  'headers.authorization',
  'headers["external-gh-apim-sub-key"]',
];

/** JSON lines to stdout (pino's default asynchronous-friendly destination) unless a stream is given. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'shiftgate' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The logger for the one line per request (src/server/request-log.ts): the same stream, level,
 * base fields and timestamps, without the redaction pass. That line is built from fixed fields
 * (request id, method, route pattern, status, duration, key id), none of them a redacted path,
 * so redaction never changes it; walking the paths for every request cost more than writing
 * the line. Everything else, errors included, goes through the redacting logger.
 */
export function requestLineLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}
