import type { AddressGuard } from './address-guard.js';
import { Connection, type ConnectionPool, type ConnectionUser } from './connection-pool.js';
import { DONE, LIMIT, MORE, requestBytes, ResponseReader, type RequestParts } from './http-exchange.js';
import { readTarget, type SendTarget, type SendTargets } from './send-targets.js';

export interface SendOutcome {
  /** HTTP status, or null when no response arrived (timeout, refused, connection error). */
  status: number | null;
  durationMs: number;
  /** Short, truncated description for the delivery log; never the receiver's whole body. */
  error: string | null;
  retryAfter: string | undefined;
}

const EXCERPT_CHARS = 200;

function excerpt(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > EXCERPT_CHARS ? `${clean.slice(0, EXCERPT_CHARS)}…` : clean;
}

function outcome(started: number, status: number | null, error: string | null, retryAfter?: string): SendOutcome {
  return { status, durationMs: Math.round(performance.now() - started), error, retryAfter };
}

/**
 * POSTs one webhook. Redirects are not followed (a 3xx is a failed attempt), every address
 * is checked by the guard before the socket connects, the whole exchange is bounded by
 * `timeoutMs`, and at most READ_LIMIT_BYTES of the answer are read before the socket is
 * destroyed. With a `pool`, a socket whose answer arrived whole (within the limits) goes back to
 * its origin's keep-alive pool; every other ending destroys it. Without one, each send has a
 * connection of its own.
 */
export function postWebhook(
  uri: string,
  headers: Record<string, string>,
  payload: string,
  options: { timeoutMs: number; guard: AddressGuard; pool?: ConnectionPool; targets?: SendTargets },
): Promise<SendOutcome> {
  const started = performance.now();
  // Read once per URI when the caller keeps the readings (the dispatcher), else here and now.
  const target = options.targets && options.targets.guard === options.guard ? options.targets.targetOf(uri) : readTarget(uri, options.guard);
  if ('refused' in target) return Promise.resolve(outcome(started, null, target.refused));
  let request: Buffer;
  try {
    request = requestBytes(requestParts(target, !options.pool), headers, payload);
  } catch (error) {
    // A header that could split the request: nothing is sent.
    return Promise.resolve(outcome(started, null, excerpt((error as Error).message)));
  }
  return new Promise((resolve) => {
    const exchange = new Exchange(request, options.timeoutMs, started, resolve);
    if (!options.pool) exchange.attach(new Connection(target, options.guard, null));
    else if (!options.pool.acquire(target, exchange)) exchange.failed(`too many sends waiting for a connection to ${target.origin}`);
  });
}

/** What the request line and headers say of the target (the URL parser's spelling of each). */
function requestParts(target: SendTarget, close: boolean): RequestParts {
  return {
    path: target.request.path ?? '/',
    host: target.origin.slice(target.https ? 'https://'.length : 'http://'.length),
    auth: target.request.auth ?? undefined,
    close,
  };
}

/**
 * One request and its answer on one socket, from the moment it asks for a socket to the outcome.
 * One deadline covers it all: waiting for a socket, connecting, the request, the status line, the
 * body. It ends once, with what has arrived so far; unless the answer ended cleanly (and said
 * nothing against reuse), the socket is destroyed whatever state it is in, so nothing a receiver
 * does can keep it open.
 */
class Exchange implements ConnectionUser {
  settled = false;
  private connection: Connection | null = null;
  private readonly reader = new ResponseReader();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly request: Buffer,
    private readonly timeoutMs: number,
    private readonly started: number,
    private readonly resolve: (outcome: SendOutcome) => void,
  ) {
    this.timer = setTimeout(() => this.timedOut(), timeoutMs);
  }

  attach(connection: Connection): void {
    this.connection = connection;
    connection.user = this;
    if (connection.ready) this.ready();
  }

  ready(): void {
    this.connection!.socket.write(this.request);
  }

  data(chunk: Buffer): void {
    const result = this.reader.read(chunk);
    if (result === MORE) return;
    // A 2xx is the receiver's acceptance even when its body is cut at the read limit.
    if (result === DONE || result === LIMIT) this.conclude(null, result === DONE && this.reader.keepAlive);
    else this.conclude(`malformed response: ${this.reader.problem}`);
  }

  ended(): void {
    this.conclude(this.reader.endedByClose() ? null : 'connection closed before the response ended');
  }

  failed(message: string): void {
    this.conclude(message);
  }

  private timedOut(): void {
    this.conclude(this.reader.status === null ? `timed out after ${this.timeoutMs} ms` : `response body not finished within ${this.timeoutMs} ms`);
  }

  private conclude(problem: string | null, reusable = false): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    // A request not yet wholly written when the answer ended (the receiver answered early) leaves the socket unusable.
    this.connection?.release(reusable && this.connection.socket.writableLength === 0, this.reader.idleHintSeconds);
    this.resolve(this.outcomeOf(problem));
  }

  private outcomeOf(problem: string | null): SendOutcome {
    const { status } = this.reader;
    if (status === null) return outcome(this.started, null, excerpt(problem ?? 'no response'));
    // A 2xx status is the receiver's acceptance; a body that never ends does not undo it.
    if (status >= 200 && status < 300) return outcome(this.started, status, problem);
    const reason = status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}`;
    const text = excerpt(Buffer.concat(this.reader.body).toString('utf8'));
    return outcome(this.started, status, text ? `${reason}: ${text}` : reason, this.reader.retryAfter);
  }
}
