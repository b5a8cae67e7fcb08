import { pino, type DestinationStream, type Logger } from 'pino';
import { loggedError } from './error-description.js';

export type { Logger };

/** Fields that hold credentials, in pino's path syntax. */
const SECRET_FIELDS = [
  'authorization', 'apiKey', 'accessToken', 'secret', 'password', '["external-gh-apim-sub-key"]',
  'signingSecret', 'signing_secret', 'previousSigningSecret', 'previous_signing_secret',
];

/**
 * Paths pino blanks out: the fields at the top of a log object and one level down, and a request's
 * headers. A second line of defence (request lines carry no headers or bodies) for an error or debug call.
 */
const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => (field.startsWith('[') ? `*${field}` : `*.${field}`)),
  'req.headers.authorization',
  'req.headers["external-gh-apim-sub-key"]',
];

/**
 * stdout is pino's asynchronous destination (sonic-boom): lines go in batches of LOG_BATCH_BYTES, at
 * the latest every LOG_FLUSH_MS; pino writes what still waits when the process exits, so only a
 * SIGKILL loses lines. A stdout that does not keep up holds at most LOG_BUFFER_MAX_BYTES; the rest is dropped.
 */
export const LOG_BATCH_BYTES = 8192;
export const LOG_FLUSH_MS = 100;
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

let stdout: DestinationStream | undefined;

function stdoutDestination(): DestinationStream {
  stdout ??= pino
    .destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS, maxLength: LOG_BUFFER_MAX_BYTES })
    // pino stops writing a stdout whose reader is gone (EPIPE); any other failure must not end the process either.
    .on('error', () => {});
  return stdout;
}

/** JSON lines to stdout (the process's one stdout destination, above) unless a stream is given. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'shiftgate' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // One rule for every error logged: a failed statement by its name, never its text or values.
    serializers: { err: loggedError },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(options, destination ?? stdoutDestination());
}
