import type { ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import type { LiveConfig } from '../config.js';
import type { Db } from '../shared/db/knex.js';
import { apiError, unauthenticated } from '../shared/errors.js';
import { activeApiKeyIds } from '../repositories/api-keys.js';
import { Periodic } from '../shared/periodic.js';

/** How often open streams are checked against their token's expiry (and, when due, their key). */
const SWEEP_MS = 500;
/** What a refused stream is told: streams are long-lived, so a slot rarely frees sooner. */
const STREAM_RETRY_AFTER_SECONDS = 30;

/** One admitted live stream: a slot under the caps, and the credentials it runs on, until `end` (credentials gone, server closing, client gone). */
export class LiveTicket {
  private reason: GraphQLError | null | undefined = undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly keyId: number,
    /** When the access token the stream was opened with expires (ms since the epoch). */
    readonly expiresAt: number,
    private readonly now: () => number,
    private readonly released: (ticket: LiveTicket) => void,
  ) {}

  get ended(): boolean {
    return this.reason !== undefined;
  }

  /** The error the client is told the stream ended with, or null when it just ends. */
  get endedWith(): GraphQLError | null {
    return this.reason ?? null;
  }

  /** Ends the stream now if its token has expired; true when the stream is (now) over. */
  lapsed(): boolean {
    if (!this.ended && this.now() >= this.expiresAt) this.end(unauthenticated('Access token expired'));
    return this.ended;
  }

  end(reason: GraphQLError | null): void {
    if (this.ended) return;
    this.reason = reason;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  /** Calls `listener` when the stream ends (at once if it has); returns a function that unregisters it. */
  onEnd(listener: () => void): () => void {
    if (this.ended) listener();
    else this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The response is over: the slot is free and anything still streaming stops. */
  release(): void {
    this.end(null);
    this.released(this);
  }
}

/**
 * Every open live stream of this instance: the caps (LIVE_MAX_STREAMS_PER_KEY, LIVE_MAX_STREAMS)
 * and, while streams are open, a watch that ends those whose token expired or whose key was
 * revoked (keys read in one query at least every API_KEY_CACHE_SECONDS).
 */
export class LiveStreams extends Periodic {
  private readonly open = new Set<LiveTicket>();
  private readonly perKey = new Map<number, number>();
  private lastKeyCheck = 0;

  /** `keyCheckSeconds`: API_KEY_CACHE_SECONDS, within which a revoked key's streams end. */
  constructor(private readonly options: { db: Db; limits: LiveConfig; keyCheckSeconds: number; now: () => number }) {
    super('live streams', SWEEP_MS);
  }

  get size(): number {
    return this.open.size;
  }

  /** Whether the watch timer runs (exactly while streams are open). */
  get watching(): boolean {
    return this.started;
  }

  /** Takes a slot for a stream of `keyId` until `res` closes, or refuses with RATE_LIMITED (429, Retry-After set on `res`). */
  admit(keyId: number, expiresAt: number, res: ServerResponse): LiveTicket {
    const { maxPerKey, maxStreams } = this.options.limits;
    const ofKey = this.perKey.get(keyId) ?? 0;
    if (ofKey >= maxPerKey || this.open.size >= maxStreams) {
      res.setHeader('retry-after', STREAM_RETRY_AFTER_SECONDS);
      const which = ofKey >= maxPerKey ? `${maxPerKey} live streams per API key` : `${maxStreams} live streams on this server`;
      throw apiError('RATE_LIMITED', `Too many live streams: at most ${which}; retry after ${STREAM_RETRY_AFTER_SECONDS} s`);
    }
    const ticket = new LiveTicket(keyId, expiresAt, this.options.now, (t) => this.forget(t));
    this.open.add(ticket);
    this.perKey.set(keyId, ofKey + 1);
    if (!this.started) {
      this.lastKeyCheck = this.options.now();
      this.start();
    }
    res.once('close', () => ticket.release());
    return ticket;
  }

  /** Ends every open stream (the server is closing); each completes normally. */
  endAll(): void {
    for (const ticket of [...this.open]) ticket.end(null);
  }

  private forget(ticket: LiveTicket): void {
    if (!this.open.delete(ticket)) return;
    const left = (this.perKey.get(ticket.keyId) ?? 1) - 1;
    if (left > 0) this.perKey.set(ticket.keyId, left);
    else this.perKey.delete(ticket.keyId);
    if (this.open.size === 0) void this.stop();
  }

  protected async tick(): Promise<void> {
    for (const ticket of this.open) ticket.lapsed();
    const now = this.options.now();
    // One sweep early rather than one late, so the check interval never exceeds the cache window.
    if (now - this.lastKeyCheck + SWEEP_MS <= this.options.keyCheckSeconds * 1000) return;
    this.lastKeyCheck = now;
    const active = new Set(await activeApiKeyIds(this.options.db, [...this.perKey.keys()]));
    for (const ticket of [...this.open]) if (!active.has(ticket.keyId)) ticket.end(unauthenticated('API key was revoked'));
  }
}
