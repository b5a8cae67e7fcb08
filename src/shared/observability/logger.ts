import { pino, type DestinationStream, type Logger } from 'pino';
import sonicBoom from 'sonic-boom';
import { loggedError } from './error-description.js';
import { LineBatch } from './line-batch.js';

// sonic-boom is CommonJS: its class is a property of what it exports.
const { SonicBoom } = sonicBoom;

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
 * How stdout is written: lines are gathered until this many bytes wait, or until the next flush
 * (at most LOG_FLUSH_MS after the first of them), and then handed to the operating system in one
 * write. One write per line cost a busy gateway a system call and a thread-pool hand-off per
 * request (bench/README.md, round five).
 */
export const LOG_BATCH_BYTES = 8192;
export const LOG_FLUSH_MS = 100;
/**
 * The most that waits for stdout when its reader is slower than the lines come; lines beyond it
 * are dropped rather than held (a stuck reader must not grow the gateway's memory without end).
 */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

let stdoutLines: LineBatch | undefined;

/**
 * The process's one stdout writer: lines batched (line-batch.ts) in front of sonic-boom writing
 * fd 1 asynchronously. Whatever waits when the process exits (a shutdown, a crash, process.exit)
 * is written synchronously by the exit hook; only a SIGKILL can lose lines. The batch whose write
 * node's thread pool has not finished by then is finished as the process ends, after the hook's
 * writes: that one batch can come out of order, never twice or not at all. A stdout that fails
 * (its reader gone) stops being written: logging never takes the API down.
 */
function stdoutDestination(): LineBatch {
  if (stdoutLines) return stdoutLines;
  const boom = new SonicBoom({ fd: 1, sync: false, maxLength: LOG_BUFFER_MAX_BYTES });
  let broken = false;
  boom.on('error', () => {
    broken = true;
  });
  const batch = new LineBatch(
    {
      write: (chunk) => !broken && boom.write(chunk),
      flushSync: (last) => {
        if (broken) return;
        boom.flushSync();
        // A writer in sync mode for what was still waiting: the process is about to exit.
        if (last !== undefined) new SonicBoom({ fd: 1, sync: true }).write(last);
      },
    },
    { batchChars: LOG_BATCH_BYTES, flushMs: LOG_FLUSH_MS },
  );
  process.once('exit', () => {
    try {
      batch.flushSync();
    } catch {
      // stdout cannot take more now; nothing else is left to tell.
    }
  });
  stdoutLines = batch;
  return batch;
}

/**
 * JSON lines to stdout unless a stream is given. stdout is written asynchronously, in batches
 * (LOG_BATCH_BYTES, LOG_FLUSH_MS), by the process's one stdout writer: a line reaches the
 * operating system within LOG_FLUSH_MS, and what waits at exit is written before the process ends.
 */
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

/**
 * Writes one request line: request id, method, route pattern, status, duration and key id, the
 * fields src/server/request-log.ts logs and nothing else. Positional, so writing a line builds no
 * object.
 */
export type RequestLineWriter = (
  requestId: string,
  method: string | undefined,
  route: string,
  status: number,
  durationMs: number,
  keyId: number | undefined,
) => void;

let isoSecond = Number.NaN;
let isoSecondPrefix = '';

/**
 * pino's `isoTime` field (`,"time":"<ISO 8601>"`), spelled identically, with the date and time up to
 * the second formatted once per second instead of through a Date on every line.
 */
function isoTimeField(): string {
  const now = Date.now();
  const ms = now % 1000;
  const second = now - ms;
  if (second !== isoSecond) {
    const iso = new Date(second).toISOString();
    isoSecond = second;
    isoSecondPrefix = `,"time":"${iso.slice(0, iso.length - 4)}`;
  }
  return `${isoSecondPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

/**
 * Writes the request line to the logger's own stream, at its `info` level, with its timestamp
 * function and base fields, byte for byte what `logger.info(fields, 'request')` writes. The line
 * is built from fixed fields (none of them a redacted path), so pino's redaction, serializers and
 * child bindings have nothing to do for it; skipping them and the object pino would build saves
 * most of the line's cost. A stream that wants pino's metadata (a multistream) gets the line
 * through pino itself.
 */
export function requestLineWriter(logger: Logger): RequestLineWriter {
  const { streamSym, timeSym, chindingsSym, needsMetadataGsym, mixinSym } = pino.symbols;
  const own = logger as unknown as Record<symbol, unknown>;
  const stream = own[streamSym] as (DestinationStream & Record<symbol, unknown>) | undefined;
  const time = own[timeSym] === pino.stdTimeFunctions.isoTime ? isoTimeField : (own[timeSym] as () => string);
  const bindings = own[chindingsSym] as string;
  const level = logger.levels.values['info'];
  const plain = stream !== undefined && stream[needsMetadataGsym] !== true && own[mixinSym] === undefined;
  if (!plain || typeof time !== 'function' || typeof bindings !== 'string' || level === undefined) {
    const child = logger.child({}, { redact: { paths: [] } });
    return (requestId, method, route, status, durationMs, keyId) =>
      child.info({ requestId, method, route, status, durationMs, keyId }, 'request');
  }
  const opening = `{"level":${level}`;
  return (requestId, method, route, status, durationMs, keyId) => {
    if (!logger.isLevelEnabled('info')) return;
    const methodField = method === undefined ? '' : `,"method":${JSON.stringify(method)}`;
    const keyIdField = keyId === undefined ? '' : `,"keyId":${keyId}`;
    stream!.write(
      `${opening}${time()}${bindings},"requestId":${JSON.stringify(requestId)}${methodField},"route":${JSON.stringify(route)},"status":${status},"durationMs":${durationMs}${keyIdField},"msg":"request"}\n`,
    );
  };
}
