import { connect as netConnect, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { AddressGuard } from './address-guard.js';
import { originOf, type SendTarget } from './send-targets.js';

export interface PoolLimits {
  /** Sockets one origin may hold, busy and idle together (the per-host send cap is the natural value). */
  socketsPerOrigin: number;
  /** An idle keep-alive socket is closed after this long. */
  idleMs: number;
  /** Origins with sockets at once; the least recently used one is closed to make room. */
  origins: number;
}

/**
 * Sends that may wait for a socket to one origin; one more is refused at once. The dispatcher
 * never has more sends in flight to one host than the origin has sockets, so nothing waits in
 * its use; the cap only bounds what another caller could pile up.
 */
export const MAX_WAITING_PER_ORIGIN = 1000;
/** TCP keep-alive probes on an idle socket start after this long (node's agents use the same). */
const TCP_KEEPALIVE_MS = 1000;
/** A receiver's announced idle time-out is cut by this much, so the socket is closed here before the receiver closes it under a new request. */
const IDLE_HINT_MARGIN_MS = 1000;

/** The one exchange using a connection, told of everything its socket does. */
export interface ConnectionUser {
  /** The exchange has ended (or given up while waiting for a socket): it takes no connection any more. */
  readonly settled: boolean;
  /** A connection is given to this user (not yet ready when it was opened for it). */
  attach(connection: Connection): void;
  /** The socket is connected, its address passed the guard and its TLS handshake is done: the request may be written. */
  ready(): void;
  data(chunk: Buffer): void;
  /** The receiver ended its side of the connection. */
  ended(): void;
  /** The socket failed or closed under the exchange; `message` says why. */
  failed(message: string): void;
}

/**
 * One socket to one origin. Its listeners are set once, when it opens, and pass each event to
 * the exchange using it; a socket between exchanges that hears anything (bytes, an end, an error)
 * is closed, since nothing may arrive on it before the next request. The address the socket
 * connected to is checked by the guard before anything is written on it, TLS handshake included.
 */
export class Connection {
  socket: Socket;
  user: ConnectionUser | null = null;
  /** Connected, checked, and for https handshaken. */
  ready = false;
  /** Lying in its origin's idle list. */
  idle = false;
  private gone = false;

  constructor(
    target: SendTarget,
    private readonly guard: AddressGuard,
    /** The origin's sockets in a pool this one belongs to; null for a socket of one exchange's own. */
    readonly home: OriginSockets | null,
  ) {
    const host = target.request.hostname ?? '';
    const port = Number(target.request.port ?? (target.https ? 443 : 80));
    const socket = netConnect({ host, port, lookup: guard.lookup as unknown as LookupFunction, noDelay: true, keepAlive: true, keepAliveInitialDelay: TCP_KEEPALIVE_MS });
    this.socket = socket;
    this.listen(socket);
    socket.once('connect', () => {
      // Defence in depth: the name resolved through the guard's lookup, and the address reached must pass as well.
      const problem = socket.remoteAddress ? this.guard.problem(socket.remoteAddress) : 'no remote address';
      if (problem) return void socket.destroy(new Error(`refused: ${problem}`));
      if (target.https) this.startTls(socket, host);
      else this.connected();
    });
  }

  /**
   * Ends the exchange's use of the socket: a reusable one goes back to its origin's sockets,
   * any other (or one of an exchange's own) is destroyed.
   */
  release(reusable: boolean, idleHintSeconds: number | undefined): void {
    this.user = null;
    if (this.home) this.home.release(this, reusable, idleHintSeconds);
    else this.socket.destroy();
  }

  /** Closes the socket whatever it is doing. */
  destroy(): void {
    this.socket.destroy();
  }

  /** TLS starts only once the guard passed the address, so not even a handshake goes to one it refuses. */
  private startTls(socket: Socket, host: string): void {
    const home = this.home;
    try {
      const secure = tlsConnect({ socket, host, servername: isIP(host) === 0 ? host : undefined, session: home?.tlsSession });
      this.socket = secure;
      this.listen(secure);
      secure.once('secureConnect', () => this.connected());
      if (home) secure.on('session', (session: Buffer) => (home.tlsSession = session));
    } catch (error) {
      // Thrown inside a socket event, it would end the process; it ends this connection instead.
      socket.destroy(error as Error);
    }
  }

  private connected(): void {
    this.ready = true;
    this.user?.ready();
  }

  private listen(socket: Socket): void {
    socket.on('data', (chunk: Buffer) => {
      if (this.user) this.user.data(chunk);
      else this.socket.destroy();
    });
    socket.on('end', () => {
      if (this.user) this.user.ended();
      else this.socket.destroy();
    });
    // The idle timer (see OriginSockets.release) runs under an exchange too, rearmed by each read and
    // write; there it is ignored, as the exchange's own deadline bounds it.
    socket.on('timeout', () => {
      if (!this.user) this.socket.destroy();
    });
    socket.on('error', (error: Error) => this.user?.failed(error.message));
    socket.on('close', () => {
      // A TLS socket closes with the TCP one under it: the second close says nothing new.
      if (this.gone) return;
      this.gone = true;
      this.user?.failed('connection closed before the response ended');
      this.home?.forget(this);
    });
  }
}

/**
 * One origin's sockets in a pool: idle ones (the most recently used first out), busy ones, and
 * the sends waiting for one, in their order of arrival.
 */
class OriginSockets {
  readonly idleList: Connection[] = [];
  readonly busy = new Set<Connection>();
  private waiting: ConnectionUser[] = [];
  /** Kept in the pool; an evicted or closed origin only finishes what it has under way. */
  live = true;
  tlsSession: Buffer | undefined;

  constructor(
    readonly target: SendTarget,
    private readonly guard: AddressGuard,
    private readonly limits: PoolLimits,
  ) {}

  /** Nothing under way or waiting: an evicted origin has finished. */
  get finished(): boolean {
    return this.busy.size === 0 && this.waiting.length === 0;
  }

  /** Gives `user` a socket now (idle, or a new one while there is room) or queues it; false when the queue is full. */
  take(user: ConnectionUser): boolean {
    let idle = this.idleList.pop();
    // A socket destroyed while idle leaves the list only once it has closed, a moment later.
    while (idle?.socket.destroyed) {
      idle.idle = false;
      idle = this.idleList.pop();
    }
    if (idle) {
      idle.idle = false;
      idle.socket.ref();
      this.busy.add(idle);
      user.attach(idle);
      return true;
    }
    if (this.busy.size < this.limits.socketsPerOrigin) {
      this.open(user);
      return true;
    }
    // Sends that gave up waiting are dropped when they are reached, or here when they fill the queue.
    if (this.waiting.length >= MAX_WAITING_PER_ORIGIN) this.waiting = this.waiting.filter((waiting) => !waiting.settled);
    if (this.waiting.length >= MAX_WAITING_PER_ORIGIN) return false;
    this.waiting.push(user);
    return true;
  }

  /**
   * Takes a socket back after an exchange. A reusable one goes to the first send still waiting,
   * else to the idle list (closed after the idle time, or sooner when the receiver announced a
   * shorter one); any other is destroyed, and its place goes to a new socket for the next send
   * waiting, if any.
   */
  release(connection: Connection, reusable: boolean, idleHintSeconds: number | undefined): void {
    const next = this.nextWaiting();
    if (reusable && next) return next.attach(connection);
    const idleMs = Math.min(this.limits.idleMs, idleHintSeconds === undefined ? Infinity : idleHintSeconds * 1000 - IDLE_HINT_MARGIN_MS);
    this.busy.delete(connection);
    if (reusable && this.live && idleMs > 0) {
      connection.idle = true;
      // Set once and left running, since each read or write starts it again: a socket is closed
      // once it has been idleMs without traffic, and rearming it for every send would cost more.
      if (connection.socket.timeout !== idleMs) connection.socket.setTimeout(idleMs);
      // An idle socket does not keep the process alive (as with node's agents).
      connection.socket.unref();
      this.idleList.push(connection);
      return;
    }
    connection.destroy();
    if (next) this.open(next);
  }

  /** A socket closed: an idle one leaves the idle list (a busy one is given back by its exchange). */
  forget(connection: Connection): void {
    if (!connection.idle) return;
    connection.idle = false;
    const at = this.idleList.indexOf(connection);
    if (at !== -1) this.idleList.splice(at, 1);
  }

  /** Closes the idle sockets; with `all`, the busy ones too, and the waiting sends fail. */
  shut(all: boolean): void {
    this.live = false;
    for (const connection of this.idleList.splice(0)) connection.destroy();
    if (!all) return;
    for (const user of this.waiting.splice(0)) user.failed('connection pool closed');
    for (const connection of this.busy) connection.destroy();
  }

  private open(user: ConnectionUser): void {
    const connection = new Connection(this.target, this.guard, this);
    this.busy.add(connection);
    user.attach(connection);
  }

  private nextWaiting(): ConnectionUser | undefined {
    let next = this.waiting.shift();
    while (next?.settled) next = this.waiting.shift();
    return next;
  }
}

/**
 * Keep-alive connections for webhook sends, per origin (scheme, host and port), so a socket is
 * only ever reused for the origin it was opened to. Every socket is checked by the address guard
 * twice: its name is resolved through the guard's `lookup`, and the address it actually
 * connected to is checked again before anything is written. Bounded four ways: sockets per
 * origin, an idle time-out per socket, the number of origins, and the sends waiting per origin.
 */
export class ConnectionPool {
  private readonly origins = new Map<string, OriginSockets>();
  /** Evicted origins with exchanges still under way or waiting, so close() reaches them too. */
  private readonly evicted = new Set<OriginSockets>();
  private closed = false;

  constructor(
    private readonly guard: AddressGuard,
    private readonly limits: PoolLimits,
  ) {}

  /**
   * Gives `user` a socket to `target`'s origin (attach), now or once one is free; false when
   * too many sends wait already. A closed pool gives each send a socket of its own.
   */
  acquire(target: SendTarget, user: ConnectionUser): boolean {
    if (this.closed) {
      user.attach(new Connection(target, this.guard, null));
      return true;
    }
    let origin = this.origins.get(target.origin);
    if (origin) {
      // Most recently used last, so the first entry is the one to evict.
      this.origins.delete(target.origin);
      this.origins.set(target.origin, origin);
    } else {
      if (this.origins.size >= this.limits.origins) this.evictOldest();
      origin = new OriginSockets(target, this.guard, this.limits);
      this.origins.set(target.origin, origin);
    }
    return origin.take(user);
  }

  /** Origins with sockets now (for tests and metrics). */
  get size(): number {
    return this.origins.size;
  }

  /** The idle sockets kept for `url`'s origin (for tests and metrics). */
  idleSockets(url: URL): readonly Socket[] {
    return this.origins.get(originOf(url))?.idleList.map((c) => c.socket) ?? [];
  }

  /** Closes every socket, busy or idle, and fails the sends waiting: sends after this use a connection of their own. */
  close(): void {
    this.closed = true;
    for (const origin of [...this.origins.values(), ...this.evicted]) origin.shut(true);
    this.origins.clear();
    this.evicted.clear();
  }

  private evictOldest(): void {
    const oldest = this.origins.entries().next();
    if (oldest.done) return;
    this.origins.delete(oldest.value[0]);
    // Exchanges under way on the evicted origin finish; its sockets are not kept afterwards.
    oldest.value[1].shut(false);
    for (const origin of this.evicted) if (origin.finished) this.evicted.delete(origin);
    if (!oldest.value[1].finished) this.evicted.add(oldest.value[1]);
  }
}
