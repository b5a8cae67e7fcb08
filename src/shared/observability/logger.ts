import { pino, type DestinationStream, type Logger } from 'pino';
import { loggedError } from './error-description.js';

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

/**
 * stdout is pino's own asynchronous destination (sonic-boom): lines are gathered until
 * LOG_BATCH_BYTES wait and then written at once, and at the latest every LOG_FLUSH_MS. One write
 * per line cost a busy gateway a system call and a thread-pool hand-off per request
 * (an earlier bench round, in bench/README.md's git history). pino writes what still waits synchronously when the process
 * exits (a shutdown, a crash, process.exit); only a SIGKILL can lose lines. A stdout that does
 * not keep up holds at most LOG_BUFFER_MAX_BYTES; lines beyond it are dropped rather than held.
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
