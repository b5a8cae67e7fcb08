import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type * as RateLimiterFlexible from 'rate-limiter-flexible';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimitsConfig } from '../config.js';
import type { Db } from '../shared/db/knex.js';
import { apiError } from '../shared/errors.js';
import { WindowCounter } from './window-counter.js';

const WINDOW_SECONDS = 60;

const require = createRequire(import.meta.url);
let library: typeof RateLimiterFlexible | undefined;

/** rate-limiter-flexible, loaded only for a shared store: the in-process counts never need it. */
function rateLimiterLibrary(): typeof RateLimiterFlexible {
  library ??= require('rate-limiter-flexible') as typeof RateLimiterFlexible;
  return library;
}

/** A refusal from the library's store (it rejects with its result object when points run out). */
function isStoreRefusal(error: unknown): error is RateLimiterRes {
  return error instanceof rateLimiterLibrary().RateLimiterRes;
}

/**
 * Where a budget's counts live: in this process (synchronous, the default), or in a shared store
 * through rate-limiter-flexible (RATE_LIMIT_STORE=postgres).
 */
export type CountStore = WindowCounter | RateLimiterAbstract;

/**
 * One budget (per API key, or per client address on the token endpoint) with the IETF
 * RateLimit header fields in their structured-field form (draft-ietf-httpapi-ratelimit-headers):
 *
 *   RateLimit-Policy: "default";q=1200;w=60
 *   RateLimit: "default";r=<remaining>;t=<seconds until the window resets>
 *
 * plus Retry-After (seconds) on 429.
 */
export class Budget {
  private readonly policyHeader: string;
  private readonly prefix: string;

  constructor(
    private readonly limiter: CountStore,
    name: string,
    private readonly quota: number,
  ) {
    this.policyHeader = `"${name}";q=${quota};w=${WINDOW_SECONDS}`;
    this.prefix = `"${name}";r=`;
  }

  /** Spends what is left of `key`'s budget for this window; returns the milliseconds until it refills. */
  async exhaust(key: string, res: ServerResponse): Promise<number> {
    if (this.limiter instanceof WindowCounter) {
      const now = Date.now();
      const count = this.limiter.add(key, this.quota, now);
      const msBeforeNext = count.expiresAt - now;
      this.setHeaders(res, this.quota - count.consumed, msBeforeNext);
      return msBeforeNext;
    }
    const state = await this.limiter.penalty(key, this.quota);
    this.setHeaders(res, state.remainingPoints, state.msBeforeNext);
    return state.msBeforeNext;
  }

  /**
   * Takes one point for `key`; sets the headers, and throws RATE_LIMITED when the budget is spent.
   * In-process counts answer synchronously (no promise per request); a shared store returns one.
   */
  consume(key: string | number, res: ServerResponse, points = 1): void | Promise<void> {
    if (!(this.limiter instanceof WindowCounter)) return this.consumeFromStore(this.limiter, key, res, points);
    const now = Date.now();
    const count = this.limiter.add(key, points, now);
    const msBeforeNext = count.expiresAt - now;
    this.setHeaders(res, this.quota - count.consumed, msBeforeNext);
    if (count.consumed > this.quota) this.refuse(res, msBeforeNext);
  }

  private async consumeFromStore(limiter: RateLimiterAbstract, key: string | number, res: ServerResponse, points: number): Promise<void> {
    let state: RateLimiterRes;
    try {
      state = await limiter.consume(key, points);
    } catch (error) {
      if (!isStoreRefusal(error)) throw error;
      this.setHeaders(res, error.remainingPoints, error.msBeforeNext);
      this.refuse(res, error.msBeforeNext);
    }
    this.setHeaders(res, state.remainingPoints, state.msBeforeNext);
  }

  private refuse(res: ServerResponse, msBeforeNext: number): never {
    const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
    res.setHeader('retry-after', retryAfter);
    throw apiError('RATE_LIMITED', `Rate limit exceeded; retry after ${retryAfter} s`);
  }

  private setHeaders(res: ServerResponse, remaining: number, msBeforeNext: number): void {
    if (res.headersSent) return;
    res.setHeader('ratelimit-policy', this.policyHeader);
    res.setHeader('ratelimit', `${this.prefix}${Math.max(0, remaining)};t=${Math.ceil(msBeforeNext / 1000)}`);
  }
}

/**
 * A count of failures that advertises nothing (no RateLimit headers): the caller decides what an
 * overdrawn count means.
 */
export class FailureCount {
  constructor(
    private readonly limiter: CountStore,
    readonly quota: number,
  ) {}

  /** Records one failure for `key`: null while within the quota, else how far over and for how long. */
  async record(key: string): Promise<{ over: number; msBeforeNext: number } | null> {
    if (this.limiter instanceof WindowCounter) {
      const now = Date.now();
      const count = this.limiter.add(key, 1, now);
      return count.consumed > this.quota ? { over: count.consumed - this.quota, msBeforeNext: count.expiresAt - now } : null;
    }
    try {
      await this.limiter.consume(key, 1);
      return null;
    } catch (error) {
      if (!isStoreRefusal(error)) throw error;
      return { over: error.consumedPoints - this.quota, msBeforeNext: error.msBeforeNext };
    }
  }
}

export interface RateLimits {
  perKey: Budget;
  tokenPerAddress: Budget;
  tokenPrefixFailures: FailureCount;
}

/**
 * In-process counters by default. With RATE_LIMIT_STORE=postgres the counters live in the
 * PostgreSQL table `rate_limits` (created by the migrations), so several instances
 * share one budget; a database hiccup then lets requests through (insurance limiter) rather
 * than refusing everyone.
 */
export function createRateLimits(limits: LimitsConfig, db: Db): RateLimits {
  const build = (keyPrefix: string, points: number): CountStore => {
    if (limits.rateLimitStore !== 'postgres') return new WindowCounter(WINDOW_SECONDS * 1000);
    const { RateLimiterMemory, RateLimiterPostgres } = rateLimiterLibrary();
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
    return new RateLimiterPostgres({
      storeClient: db,
      storeType: 'knex',
      tableName: 'rate_limits',
      // Created by migration 011: counters built side by side would race to create it.
      tableCreated: true,
      keyPrefix,
      points,
      duration: WINDOW_SECONDS,
      insuranceLimiter: memory,
      clearExpiredByTimeout: true,
    });
  };
  return {
    perKey: new Budget(build('key', limits.rateLimitPerMinute), 'default', limits.rateLimitPerMinute),
    tokenPerAddress: new Budget(build('token', limits.tokenRateLimitPerMinute), 'token', limits.tokenRateLimitPerMinute),
    tokenPrefixFailures: new FailureCount(build('token-prefix', limits.tokenPrefixFailuresPerMinute), limits.tokenPrefixFailuresPerMinute),
  };
}
