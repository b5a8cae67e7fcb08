import type { IncomingHttpHeaders } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { buildConnector, Pool, type Dispatcher } from 'undici';
import type { AddressGuard } from './address-guard.js';

export interface SendOutcome {
  /** HTTP status, or null when no response arrived (timeout, refused, connection error). */
  status: number | null;
  durationMs: number;
  /** Short, truncated description for the delivery log; never the receiver's whole body. */
  error: string | null;
  retryAfter: string | undefined;
}

/** The most of any response body ever read; shiftgate needs only the status and a short excerpt. */
const READ_LIMIT_BYTES = 4096;
/** The most an answer's header section may take. */
const HEAD_LIMIT_BYTES = 16 * 1024;
/** Sends that may wait for a connection to one origin (the dispatcher never makes any wait); one more is refused at once. */
export const MAX_WAITING_PER_ORIGIN = 1000;
/** TCP keep-alive probes on an idle socket start after this long (node's agents use the same). */
const TCP_KEEPALIVE_MS = 1000;
/** A receiver's announced idle time-out is cut by this much, so the connection is closed here before the receiver closes it under a new request. */
const IDLE_HINT_MARGIN_MS = 1000;
const EXCERPT_CHARS = 200;

/** Where one delivery URI sends to: its host and port, its origin (as connections are pooled; both in lower case) and node's reading of it. */
export interface SendTarget {
  https: boolean;
  host: string;
  origin: string;
  request: Readonly<ReturnType<typeof urlToHttpOptions>>;
}

/** Why nothing is sent to a URI at all: a malformed one, another scheme, or a literal address the guard refuses. */
export type RefusedTarget = { refused: string };

/**
 * Reads a delivery URI the way every send of it would. A literal address is checked here (node
 * connects to one without calling `lookup`); names are checked on every connection instead.
 */
export function readTarget(uri: string, guard: AddressGuard): SendTarget | RefusedTarget {
  if (!URL.canParse(uri)) return { refused: 'invalid uri' };
  const url = new URL(uri);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: 'only http and https are allowed' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const problem = isIP(host) !== 0 ? guard.problem(host) : null;
  if (problem) return { refused: `refused: ${problem}` };
  const hostAndPort = url.host.toLowerCase();
  return { https: url.protocol === 'https:', host: hostAndPort, origin: `${url.protocol}//${hostAndPort}`, request: Object.freeze(urlToHttpOptions(url)) };
}

/** `key`'s entry, made now if it has none, moved last: the first entry, the least recently used, is dropped past `max`. */
function recent<K, V>(map: Map<K, V>, key: K, make: () => V, max: number, drop?: (value: V) => void): V {
  const value = map.get(key) ?? make();
  map.delete(key);
  const oldest = map.size >= max ? map.entries().next().value : undefined;
  if (oldest) {
    map.delete(oldest[0]);
    drop?.(oldest[1]);
  }
  map.set(key, value);
  return value;
}

/** The URIs sent to lately, each read once: a reading depends only on the URI and the guard, which never changes. */
export class SendTargets {
  private readonly known = new Map<string, SendTarget | RefusedTarget>();

  constructor(
    readonly guard: AddressGuard,
    private readonly capacity = 1000,
  ) {}

  get size(): number {
    return this.known.size;
  }

  targetOf(uri: string): SendTarget | RefusedTarget {
    return recent(this.known, uri, () => readTarget(uri, this.guard), this.capacity);
  }
}

export interface PoolLimits {
  /** Connections one origin may hold, busy and idle together (the per-host send cap is the natural value). */
  socketsPerOrigin: number;
  idleMs: number;
  origins: number;
  /** A connection not made (TLS handshake included) within this long fails. */
  connectTimeoutMs: number;
}

/**
 * Opens every webhook connection: the name resolves through the guard's `lookup`, and the address
 * the socket reached is checked again before anything, a TLS handshake included, is written on
 * it. Both steps are undici's own connector: a TCP connection, then TLS over the checked socket.
 */
function guardedConnector(guard: AddressGuard, timeoutMs: number): buildConnector.connector {
  const tcp = buildConnector({ timeout: timeoutMs, lookup: guard.lookup as unknown as LookupFunction, keepAliveInitialDelay: TCP_KEEPALIVE_MS });
  const tls = buildConnector({ timeout: timeoutMs });
  return (options, callback) => {
    const https = options.protocol === 'https:';
    tcp({ ...options, protocol: 'http:', port: options.port || (https ? '443' : '80') }, (error, socket) => {
      if (error) return callback(error, null);
      const problem = socket.remoteAddress ? guard.problem(socket.remoteAddress) : 'no remote address';
      if (problem) {
        socket.destroy();
        return callback(new Error(`refused: ${problem}`), null);
      }
      if (https) tls({ ...options, httpSocket: socket }, callback);
      else callback(null, socket);
    });
  };
}

/**
 * Keep-alive connections for webhook sends: one undici `Pool` per origin, so a connection is only
 * reused for the origin it was opened to. Bounded four ways: connections per origin, an idle
 * time-out, the number of origins (the least recently used one closes) and the sends waiting.
 */
export class SendPools {
  private readonly pools = new Map<string, Pool>();
  private readonly options: Pool.Options;

  constructor(guard: AddressGuard, private readonly limits: PoolLimits) {
    this.options = {
      connections: limits.socketsPerOrigin,
      keepAliveTimeout: limits.idleMs,
      keepAliveMaxTimeout: limits.idleMs,
      keepAliveTimeoutThreshold: IDLE_HINT_MARGIN_MS,
      maxHeaderSize: HEAD_LIMIT_BYTES,
      connect: guardedConnector(guard, limits.connectTimeoutMs),
    };
  }

  /** Origins with a pool now (for tests and metrics). */
  get size(): number {
    return this.pools.size;
  }

  /** The pool of `target`'s origin, made now if it has none. */
  poolOf(target: SendTarget): Pool {
    const make = () => new Pool(target.origin, this.options);
    // Sends under way on an evicted origin finish; its connections are not kept afterwards.
    return recent(this.pools, target.origin, make, this.limits.origins, (pool) => void pool.close().catch(() => undefined));
  }

  /** Closes every connection, busy or idle, failing the sends under way or waiting; later sends open new ones. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.allSettled(pools.map((pool) => pool.destroy()));
  }
}

function excerpt(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > EXCERPT_CHARS ? `${clean.slice(0, EXCERPT_CHARS)}…` : clean;
}

function outcome(started: number, status: number | null, error: string | null, retryAfter?: string): SendOutcome {
  return { status, durationMs: Math.round(performance.now() - started), error, retryAfter };
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * POSTs one webhook through its origin's pool. Redirects are not followed (a 3xx is a failed
 * attempt), the whole exchange (waiting for a connection included) is bounded by `timeoutMs`,
 * and at most READ_LIMIT_BYTES of the answer are read.
 */
export function postWebhook(
  uri: string,
  headers: Record<string, string>,
  payload: string,
  options: { timeoutMs: number; guard: AddressGuard; pools: SendPools; targets?: SendTargets },
): Promise<SendOutcome> {
  const started = performance.now();
  // Read once per URI when the caller keeps the readings (the dispatcher), else here and now.
  const target = options.targets && options.targets.guard === options.guard ? options.targets.targetOf(uri) : readTarget(uri, options.guard);
  if ('refused' in target) return Promise.resolve(outcome(started, null, target.refused));
  const pool = options.pools.poolOf(target);
  if (pool.stats.queued >= MAX_WAITING_PER_ORIGIN) return Promise.resolve(outcome(started, null, `too many sends waiting for a connection to ${target.origin}`));
  const sent: Record<string, string> = { ...headers, 'content-type': 'application/json', 'user-agent': 'shiftgate-webhooks/1' };
  const auth = target.request.auth;
  if (auth && !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) sent.authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
  return new Promise((resolve) => {
    const exchange = new Exchange(options.timeoutMs, started, resolve);
    pool.dispatch(
      { path: target.request.path ?? '/', method: 'POST', headers: sent, body: payload, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs },
      exchange,
    );
  });
}

/**
 * One send from dispatch to outcome, under one deadline; it ends once, with what has arrived.
 * A connection is kept for the next send only after a 2xx read whole: HTTP/1.1 cannot tell an
 * answer from one sent unasked (a 500 and, a moment later, a 200 would be read as the next send's
 * answer), so after any other answer the connection is dropped before undici sees its end.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private settled = false;
  private controller: Dispatcher.DispatchController | null = null;
  private status: number | null = null;
  private retryAfter: string | undefined;
  /** Content-Length of a non-2xx answer, when it gave one: its body is read for the excerpt, and not a byte beyond. */
  private expected: number | null = null;
  private readonly body: Buffer[] = [];
  private bodyBytes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    timeoutMs: number,
    private readonly started: number,
    private readonly resolve: (outcome: SendOutcome) => void,
  ) {
    this.timer = setTimeout(() => {
      this.drop(this.status === null ? `timed out after ${timeoutMs} ms` : `response body not finished within ${timeoutMs} ms`);
    }, timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // It gave up while waiting for a connection: nothing is written.
    if (this.settled) controller.abort(new Error('gave up waiting for a connection'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    this.retryAfter = firstOf(headers['retry-after']);
    if (this.accepted) return;
    const length = Number(firstOf(headers['content-length']) ?? NaN);
    this.expected = Number.isSafeInteger(length) ? length : null;
    // A chunked body may end without a byte of data reaching this handler: no excerpt, but no reuse either.
    if (this.expected === 0 || statusCode === 304 || (this.expected === null && headers['transfer-encoding'] !== undefined)) this.drop(null);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bodyBytes += chunk.length;
    if (!this.accepted) this.body.push(chunk);
    // A 2xx is the receiver's acceptance even when its body is cut at the read limit.
    if (this.bodyBytes > READ_LIMIT_BYTES) return this.drop(null);
    // The last byte of the length given, before undici sees the answer end and frees the connection.
    if (!this.accepted && this.expected !== null && this.bodyBytes >= this.expected) this.drop(null);
  }

  onResponseEnd(): void {
    this.conclude(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.conclude(error.message);
  }

  private get accepted(): boolean {
    return this.status !== null && this.status >= 200 && this.status < 300;
  }

  /** Ends the send with what it has, and its connection with it. */
  private drop(problem: string | null): void {
    this.conclude(problem);
    this.controller?.abort(new Error(problem ?? 'answer read'));
  }

  private conclude(problem: string | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const { status } = this;
    if (status === null) return this.resolve(outcome(this.started, null, excerpt(problem ?? 'no response')));
    // A 2xx status is the receiver's acceptance; a body that never ends does not undo it.
    if (this.accepted) return this.resolve(outcome(this.started, status, problem));
    const reason = status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}`;
    const text = excerpt(Buffer.concat(this.body).subarray(0, READ_LIMIT_BYTES).toString('utf8'));
    this.resolve(outcome(this.started, status, text ? `${reason}: ${text}` : reason, this.retryAfter));
  }
}
