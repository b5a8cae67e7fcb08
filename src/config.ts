import { BlockList, isIP } from 'node:net';
import { dirname, resolve } from 'node:path';

export type DatabaseConfig =
  | { client: 'sqlite'; filename: string }
  | { client: 'pg'; connectionString: string };

export interface Config {
  database: DatabaseConfig;
  /** Where the generated JWT secret (and other local state) is kept. */
  dataDir: string;
  port: number;
  /** NODE_ENV=production: no demo credentials, and `serve` refuses to start without real ones. */
  production: boolean;
  /** Accepted values of the external-gh-apim-sub-key header (none in production without SUBSCRIPTION_KEYS). */
  subscriptionKeys: readonly string[];
  /** True when SUBSCRIPTION_KEYS was not set outside production, so the demo key is accepted. */
  demoSubscriptionKey: boolean;
  /** Undefined means: generate once and keep it in dataDir. */
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  /** How long a verified API key's state is reused before it is read again (revocation delay). */
  apiKeyCacheSeconds: number;
  /** Database connection pool bounds (PostgreSQL). */
  poolMin: number;
  poolMax: number;
  /** How long a SQLite statement waits for another connection's lock before failing (503). */
  sqliteBusyTimeoutMs: number;
  webhooks: WebhookConfig;
  live: LiveConfig;
  /** Abuse limits, rate limits and operability (see README, "Security" and "Operations"). */
  limits: LimitsConfig;
}

/** Webhook delivery and the license-expiry scheduler (see README, "Webhooks"). */
export interface WebhookConfig {
  /** Seconds to wait before each retry; its length is the number of retries. */
  retryScheduleSeconds: readonly number[];
  /** A subscription whose deliveries have all failed for this long is deactivated. */
  disableAfterHours: number;
  /** CIDR ranges exempt from the SSRF guard (tests, on-premise receivers). */
  allowedCidrs: readonly string[];
  timeoutMs: number;
  pollIntervalMs: number;
  /** How long a claimed delivery belongs to one dispatcher before another may take it over. */
  leaseMs: number;
  concurrency: number;
  /** Sends in flight at once to one subscription, so one receiver cannot take the whole pool. */
  concurrencyPerSubscription: number;
  /** Sends in flight at once to one destination (host and port), across its subscriptions. */
  concurrencyPerHost: number;
  /** Finished deliveries, their attempts and spent events are deleted after this many days; 0 keeps them. */
  retentionDays: number;
  licenseScanIntervalSeconds: number;
}

/** Caps on GraphQL live-event streams (see docs/webhooks.md, "Live events"). */
export interface LiveConfig {
  /** Concurrent streams one API key may hold open on this instance. */
  maxPerKey: number;
  /** Concurrent streams on this instance, all keys together. */
  maxStreams: number;
}

/** Invalid configuration: the message is one line that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEMO_SUBSCRIPTION_KEY = 'demo-subscription-key';
/** HS256 wants a key of at least 256 bits; a shorter JWT_SECRET works but start-up warns about it. */
export const RECOMMENDED_JWT_SECRET_LENGTH = 32;
const DEFAULT_DATABASE_URL = 'sqlite:./data/shiftgate.sqlite';

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}: must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function parseDatabaseUrl(raw: string): DatabaseConfig {
  const value = raw.trim();
  if (value === '') throw new ConfigError('DATABASE_URL: must not be empty');
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError(`DATABASE_URL: not a valid PostgreSQL URL`);
    }
    return { client: 'pg', connectionString: value };
  }
  if (/^file:/i.test(value)) {
    // file:/abs/path and file:///abs/path name a SQLite file, like a bare path.
    const filename = value.replace(/^file:(\/\/)?/i, '');
    if (filename === '') throw new ConfigError('DATABASE_URL: file: needs a path');
    return { client: 'sqlite', filename: resolve(filename) };
  }
  if (/^sqlite:/i.test(value)) {
    const filename = value.replace(/^sqlite:(\/\/)?/i, '');
    if (filename === '') throw new ConfigError('DATABASE_URL: sqlite: needs a file path');
    return { client: 'sqlite', filename: filename === ':memory:' ? filename : resolve(filename) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError(`DATABASE_URL: unsupported scheme (use sqlite:PATH, a file path, or postgres://…)`);
  }
  return { client: 'sqlite', filename: value === ':memory:' ? value : resolve(value) };
}

function listVar(env: Env, name: string): string[] | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) throw new ConfigError(`${name}: must list at least one value`);
  return items;
}

function retryScheduleVar(env: Env, name: string): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [5, 300, 1800, 7200, 18000, 36000, 36000];
  const items = raw.split(',').map((s) => s.trim());
  // Fractions are allowed so tests can compress the schedule to milliseconds.
  if (items.some((s) => !/^[0-9]+(\.[0-9]+)?$/.test(s) || Number(s) > 7 * 24 * 3600)) {
    throw new ConfigError(`${name}: must be comma-separated seconds (0 to 604800), got "${raw}"`);
  }
  return items.map(Number);
}

function decimalVar(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(raw.trim()) || Number(raw) > max) {
    throw new ConfigError(`${name}: must be a number from 0 to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function cidrListVar(env: Env, name: string): string[] {
  const items = env[name]?.trim() ? (listVar(env, name) ?? []) : [];
  const blocks = new BlockList();
  for (const item of items) {
    const match = /^([^/]+)\/([0-9]{1,3})$/.exec(item);
    const family = match && isIP(match[1] ?? '');
    const prefix = Number(match?.[2]);
    if (!match || !family || prefix > (family === 4 ? 32 : 128)) {
      throw new ConfigError(`${name}: "${item}" is not a CIDR range such as 127.0.0.0/8`);
    }
    blocks.addSubnet(match[1] ?? '', prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return items;
}

function loadWebhookConfig(env: Env): WebhookConfig {
  const timeoutMs = intVar(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000);
  const leaseMs = intVar(env, 'WEBHOOK_LEASE_MS', Math.max(60_000, 2 * timeoutMs), 100, 3_600_000);
  if (leaseMs <= timeoutMs && env.WEBHOOK_LEASE_MS !== undefined) {
    throw new ConfigError('WEBHOOK_LEASE_MS: must be longer than WEBHOOK_TIMEOUT_MS');
  }
  return {
    retryScheduleSeconds: retryScheduleVar(env, 'WEBHOOK_RETRY_SCHEDULE'),
    disableAfterHours: decimalVar(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 120, 24 * 365),
    allowedCidrs: cidrListVar(env, 'WEBHOOK_ALLOWED_CIDRS'),
    timeoutMs,
    pollIntervalMs: intVar(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 60_000),
    leaseMs,
    concurrency: intVar(env, 'WEBHOOK_CONCURRENCY', 8, 1, 256),
    concurrencyPerSubscription: intVar(env, 'WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION', 2, 1, 256),
    concurrencyPerHost: intVar(env, 'WEBHOOK_CONCURRENCY_PER_HOST', 4, 1, 256),
    retentionDays: intVar(env, 'WEBHOOK_RETENTION_DAYS', 30, 0, 36_500),
    licenseScanIntervalSeconds: intVar(env, 'LICENSE_SCAN_INTERVAL_SECONDS', 300, 1, 24 * 3600),
  };
}

function loadLiveConfig(env: Env): LiveConfig {
  return {
    maxPerKey: intVar(env, 'LIVE_MAX_STREAMS_PER_KEY', 10, 1, 100_000),
    maxStreams: intVar(env, 'LIVE_MAX_STREAMS', 1000, 1, 100_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const database = parseDatabaseUrl(env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
  const dataDir = env.DATA_DIR?.trim()
    ? resolve(env.DATA_DIR.trim())
    : database.client === 'sqlite' && database.filename !== ':memory:'
      ? dirname(database.filename)
      : resolve('data');
  const production = env.NODE_ENV === 'production';
  const keys = listVar(env, 'SUBSCRIPTION_KEYS');
  // The demo key is public; production never falls back to it (and `serve` refuses to start).
  const demoSubscriptionKey = keys === undefined && !production;
  const jwtSecret = env.JWT_SECRET;
  if (jwtSecret !== undefined && jwtSecret.trim() === '') {
    throw new ConfigError('JWT_SECRET: must not be empty (unset it to have a secret generated)');
  }
  const poolMin = intVar(env, 'DATABASE_POOL_MIN', 0, 0, 100);
  const poolMax = intVar(env, 'DATABASE_POOL_MAX', 10, 1, 200);
  if (poolMin > poolMax) throw new ConfigError('DATABASE_POOL_MIN: must not exceed DATABASE_POOL_MAX');
  return {
    database,
    dataDir,
    port: intVar(env, 'PORT', 4000, 0, 65535),
    production,
    subscriptionKeys: keys ?? (demoSubscriptionKey ? [DEMO_SUBSCRIPTION_KEY] : []),
    demoSubscriptionKey,
    jwtSecret,
    tokenTtlSeconds: intVar(env, 'TOKEN_TTL_SECONDS', 3600, 1, 7 * 24 * 3600),
    apiKeyCacheSeconds: intVar(env, 'API_KEY_CACHE_SECONDS', 30, 0, 60),
    poolMin,
    poolMax,
    sqliteBusyTimeoutMs: intVar(env, 'SQLITE_BUSY_TIMEOUT_MS', 5000, 0, 600_000),
    webhooks: loadWebhookConfig(env),
    live: loadLiveConfig(env),
    limits: loadLimitsConfig(env, database),
  };
}

/** Per-request work limits, rate limits, time-outs and logging. */
export interface LimitsConfig {
  bodyLimitBytes: number;
  maxUrlLength: number;
  maxHeaderBytes: number;
  /** Whole request (headers and body) must arrive within this; slow clients get 408. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Requests per minute per API key (REST and GraphQL together). */
  rateLimitPerMinute: number;
  /** Token requests per minute per client address, refused or not. */
  tokenRateLimitPerMinute: number;
  /** Refused API keys per minute per stored key prefix, from all addresses together. */
  tokenPrefixFailuresPerMinute: number;
  /**
   * Proxies whose X-Forwarded-For is believed (CIDR ranges). Only a request whose socket peer is
   * in one of them is attributed to the address it forwards for.
   */
  trustedProxies: readonly string[];
  rateLimitStore: 'memory' | 'postgres';
  graphql: {
    maxDepth: number;
    maxAliases: number;
    maxTokens: number;
    maxDirectives: number;
    maxCost: number;
    batchLimit: number;
    introspection: boolean;
    fieldSuggestions: boolean;
    /** Whether armor errors name the configured limit (never in production). */
    exposeLimits: boolean;
  };
  shutdownTimeoutMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name}: must be true or false, got "${env[name]}"`);
}

function loadLimitsConfig(env: Env, database: DatabaseConfig): LimitsConfig {
  const production = env.NODE_ENV === 'production';
  const store = env.RATE_LIMIT_STORE?.trim() || 'memory';
  if (store !== 'memory' && store !== 'postgres') {
    throw new ConfigError(`RATE_LIMIT_STORE: must be memory or postgres, got "${store}"`);
  }
  if (store === 'postgres' && database.client !== 'pg') {
    throw new ConfigError('RATE_LIMIT_STORE: postgres needs a postgres:// DATABASE_URL');
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const requestTimeoutMs = intVar(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  return {
    bodyLimitBytes: intVar(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1, 100 * 1024 * 1024),
    maxUrlLength: intVar(env, 'MAX_URL_LENGTH', 8192, 64, 1024 * 1024),
    maxHeaderBytes: intVar(env, 'MAX_HEADER_BYTES', 16 * 1024, 1024, 1024 * 1024),
    requestTimeoutMs,
    headersTimeoutMs: Math.min(requestTimeoutMs, intVar(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000)),
    rateLimitPerMinute: intVar(env, 'RATE_LIMIT_PER_MINUTE', 1200, 1, 10_000_000),
    tokenRateLimitPerMinute: intVar(env, 'TOKEN_RATE_LIMIT_PER_MINUTE', 30, 1, 10_000_000),
    tokenPrefixFailuresPerMinute: intVar(env, 'TOKEN_PREFIX_FAILURES_PER_MINUTE', 10, 1, 10_000_000),
    trustedProxies: cidrListVar(env, 'TRUSTED_PROXIES'),
    rateLimitStore: store,
    graphql: {
      maxDepth: intVar(env, 'GRAPHQL_MAX_DEPTH', 10, 1, 1000),
      maxAliases: intVar(env, 'GRAPHQL_MAX_ALIASES', 15, 0, 1000),
      maxTokens: intVar(env, 'GRAPHQL_MAX_TOKENS', 2000, 10, 1_000_000),
      maxDirectives: intVar(env, 'GRAPHQL_MAX_DIRECTIVES', 10, 0, 1000),
      maxCost: intVar(env, 'GRAPHQL_MAX_COST', 5000, 1, 10_000_000),
      batchLimit: intVar(env, 'GRAPHQL_BATCH_LIMIT', 10, 1, 1000),
      introspection: boolVar(env, 'GRAPHQL_INTROSPECTION', !production),
      fieldSuggestions: env.NODE_ENV === 'development',
      exposeLimits: !production,
    },
    shutdownTimeoutMs: intVar(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    logLevel: logLevel as LimitsConfig['logLevel'],
  };
}
