import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type * as Library from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitsConfig } from '../config.js';
import type { Db } from '../shared/db/knex.js';
import { apiError } from '../shared/errors.js';

const WINDOW_SECONDS = 60;

// rate-limiter-flexible's documented direct imports: its index loads all of its ~30 stores and
// wrappers (about 9 MB more resident memory than these files, which add about 1.4 MB).
const require = createRequire(import.meta.url);
const RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory.js') as typeof Library.RateLimiterMemory;

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
    private readonly limiter: RateLimiterAbstract,
    name: string,
    quota: number,
  ) {
    this.policyHeader = `"${name}";q=${quota};w=${WINDOW_SECONDS}`;
    this.prefix = `"${name}";r=`;
  }

  /** Spends what is left of `key`'s budget for this window; returns the milliseconds until it refills. */
  async exhaust(key: string, res: ServerResponse): Promise<number> {
    const state = await this.limiter.penalty(key, this.limiter.points);
    this.setHeaders(res, state.remainingPoints, state.msBeforeNext);
    return state.msBeforeNext;
  }

  /** Takes `points` for `key`; sets the headers, and throws RATE_LIMITED when the budget is spent. */
  async consume(key: string | number, res: ServerResponse, points = 1): Promise<void> {
    // `penalty` counts as `consume` does (nothing blocks or spreads here), but resolves when the points run out.
    const state = await this.limiter.penalty(key, points);
    this.setHeaders(res, state.remainingPoints, state.msBeforeNext);
    if (state.consumedPoints <= this.limiter.points) return;
    const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    res.setHeader('retry-after', retryAfter);
    throw apiError('RATE_LIMITED', `Rate limit exceeded; retry after ${retryAfter} s`);
  }

  private setHeaders(res: ServerResponse, remaining: number, msBeforeNext: number): void {
    if (res.headersSent) return;
    res.setHeader('ratelimit-policy', this.policyHeader);
    res.setHeader('ratelimit', `${this.prefix}${Math.max(0, remaining)};t=${Math.ceil(msBeforeNext / 1000)}`);
  }
}

export interface RateLimits {
  perKey: Budget;
  tokenPerAddress: Budget;
  /** A count of refused keys that advertises nothing (no RateLimit headers): the caller decides what an overdrawn count means. */
  tokenPrefixFailures: RateLimiterAbstract;
}

/**
 * rate-limiter-flexible's fixed windows, in this process by default. With RATE_LIMIT_STORE=postgres
 * the counters live in the PostgreSQL table `rate_limits` (created by the migrations), so several
 * instances share one budget; a database hiccup then lets requests through (the in-process
 * insurance limiter) rather than refusing everyone.
 */
export function createRateLimits(limits: LimitsConfig, db: Db): RateLimits {
  const build = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
    if (limits.rateLimitStore !== 'postgres') return memory;
    const RateLimiterPostgres = require('rate-limiter-flexible/lib/RateLimiterPostgres.js') as typeof Library.RateLimiterPostgres;
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
    tokenPrefixFailures: build('token-prefix', limits.tokenPrefixFailuresPerMinute),
  };
}
