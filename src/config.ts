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
  /**
   * Origins a browser may call the APIs from (`*` for any); undefined when CORS_ORIGINS is unset,
   * which means none, except that `serve --demo` then allows any.
   */
  corsOrigins: readonly string[] | undefined;
  webhooks: WebhookConfig;
  live: LiveConfig;
  /** Abuse limits, rate limits and operability (see README, "Security" and "Operations"). */
  limits: LimitsConfig;
  /** How the gateway runs its own checked-in read operations (docs/operations.md, "GraphQL executor"). */
  graphqlExecutor: GraphQLExecutor;
  /** How far V8 lets the heap grow past what it held after a collection, in percent; 0 leaves V8's own factor (docs/operations.md, "Memory"). */
  heapGrowingPercent: number;
  /** The most V8's young generation may grow to, in MB; 0 leaves V8's own ceiling (docs/operations.md, "Memory"). */
  youngGenerationMB: number;
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
  rateLimitStore: (typeof RATE_LIMIT_STORES)[number];
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
  /** Subscriptions one subscriber may have (deleted ones aside): bounds one event's fan-out. */
  maxSubscriptionsPerSubscriber: number;
  shutdownTimeoutMs: number;
  logLevel: (typeof LOG_LEVELS)[number];
}

/** Invalid configuration: the message is one line that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEMO_SUBSCRIPTION_KEY = 'demo-subscription-key';
/** HS256 wants a key of at least 256 bits; a shorter JWT_SECRET works but start-up warns about it. */
export const RECOMMENDED_JWT_SECRET_LENGTH = 32;

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

/** How one environment variable is read. */
export interface Variable<T> {
  /**
   * The default, spelt as it would be in the environment (and in the docs' settings tables).
   * Undefined when the default follows from other settings: loadConfig works it out.
   */
  readonly fallback: string | undefined;
  /** An empty value goes to parse, which refuses it; otherwise empty or blank means the default. */
  readonly emptyIsValue: boolean;
  /** The value, or a ConfigError whose one line names the variable. */
  parse(raw: string, name: string): T;
}

const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/** An integer from min to max. */
function int(fallback: number, min: number, max: number): Variable<number>;
function int(fallback: undefined, min: number, max: number): Variable<number | undefined>;
function int(fallback: number | undefined, min: number, max: number): Variable<number | undefined> {
  return {
    fallback: fallback === undefined ? undefined : String(fallback),
    emptyIsValue: false,
    parse(raw, name) {
      const value = Number(raw.trim());
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new ConfigError(`${name}: must be an integer from ${min} to ${max}, got "${raw}"`);
      }
      return value;
    },
  };
}

/** A number from 0 to max, written in plain decimal. */
function decimal(fallback: number, max: number): Variable<number> {
  return {
    fallback: String(fallback),
    emptyIsValue: false,
    parse(raw, name) {
      if (!DECIMAL.test(raw.trim()) || Number(raw) > max) {
        throw new ConfigError(`${name}: must be a number from 0 to ${max}, got "${raw}"`);
      }
      return Number(raw);
    },
  };
}

/** Comma-separated seconds, each from 0 to max. Fractions are allowed so tests can compress a schedule to milliseconds. */
function secondsList(fallback: readonly number[], max: number): Variable<number[]> {
  return {
    fallback: fallback.join(','),
    emptyIsValue: false,
    parse(raw, name) {
      const items = raw.split(',').map((s) => s.trim());
      if (items.some((s) => !DECIMAL.test(s) || Number(s) > max)) {
        throw new ConfigError(`${name}: must be comma-separated seconds (0 to ${max}), got "${raw}"`);
      }
      return items.map(Number);
    },
  };
}

function splitList(raw: string, name: string): string[] {
  const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) throw new ConfigError(`${name}: must list at least one value`);
  return items;
}

/** Comma-separated values, at least one; unset leaves the choice to loadConfig. */
function list(): Variable<string[] | undefined> {
  return { fallback: undefined, emptyIsValue: true, parse: splitList };
}

/** Comma-separated CIDR ranges (IPv4 or IPv6); empty by default. */
function cidrs(): Variable<string[]> {
  return {
    fallback: '',
    emptyIsValue: false,
    parse(raw, name) {
      const items = raw.trim() === '' ? [] : splitList(raw, name);
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
    },
  };
}

/**
 * Comma-separated browser origins (scheme://host[:port], as a browser sends them in `Origin`), or
 * `*` alone; empty means none. Unset leaves the choice to the caller (`serve --demo`).
 */
function origins(): Variable<string[] | undefined> {
  return {
    fallback: undefined,
    emptyIsValue: true,
    parse(raw, name) {
      if (raw.trim() === '') return [];
      const items = splitList(raw, name);
      if (items.includes('*')) {
        if (items.length > 1) throw new ConfigError(`${name}: "*" must stand alone, got "${raw}"`);
        return items;
      }
      for (const item of items) {
        if (originOf(item) !== item) {
          throw new ConfigError(`${name}: "${item}" is not an origin such as https://app.example.com or http://localhost:3000`);
        }
      }
      return items;
    },
  };
}

/** The origin a browser would send for this text, or undefined when it is not an http(s) URL. */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** One of a fixed set of words. */
function oneOf<const V extends string>(values: readonly V[], fallback: V): Variable<V> {
  const allowed = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  const isAllowed = (value: string): value is V => (values as readonly string[]).includes(value);
  return {
    fallback,
    emptyIsValue: false,
    parse(raw, name) {
      const value = raw.trim();
      if (!isAllowed(value)) throw new ConfigError(`${name}: must be ${allowed}, got "${value}"`);
      return value;
    },
  };
}

/** true/1 or false/0, any case; unset leaves the choice to loadConfig. */
function bool(): Variable<boolean | undefined> {
  return {
    fallback: undefined,
    emptyIsValue: false,
    parse(raw, name) {
      const value = raw.trim().toLowerCase();
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      throw new ConfigError(`${name}: must be true or false, got "${raw}"`);
    },
  };
}

/** Any text, taken as written. */
function text(): Variable<string | undefined> {
  return { fallback: undefined, emptyIsValue: false, parse: (raw) => raw };
}

/** A directory, resolved against the working directory. */
function directory(): Variable<string | undefined> {
  return { fallback: undefined, emptyIsValue: false, parse: (raw) => resolve(raw.trim()) };
}

/** A secret, kept exactly as written; empty is refused, since unset is how one asks for a generated secret. */
function secret(): Variable<string | undefined> {
  return {
    fallback: undefined,
    emptyIsValue: true,
    parse(raw, name) {
      if (raw.trim() === '') throw new ConfigError(`${name}: must not be empty (unset it to have a secret generated)`);
      return raw;
    },
  };
}

function databaseUrl(fallback: string): Variable<DatabaseConfig> {
  return { fallback, emptyIsValue: true, parse: parseDatabaseUrl };
}

const RATE_LIMIT_STORES = ['memory', 'postgres'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const GRAPHQL_EXECUTORS = ['compiled', 'standard'] as const;
export type GraphQLExecutor = (typeof GRAPHQL_EXECUTORS)[number];
/** The lease when WEBHOOK_LEASE_MS is unset, unless twice the time-out is longer. */
const MIN_DEFAULT_LEASE_MS = 60_000;

/**
 * Every environment variable shiftgate reads, each once: its parser, its default and its range
 * (the one-line error on a bad value repeats the range and names the variable). Variables are
 * read in this order, so the first bad one is the one reported. Each is documented in a settings
 * table (README.md, docs/*.md); test/config-docs.test.ts keeps the two in step.
 */
export const CONFIG_VARIABLES = {
  // README.md, "Configuration"
  NODE_ENV: text(),
  DATABASE_URL: databaseUrl('sqlite:./data/shiftgate.sqlite'),
  DATA_DIR: directory(),
  SUBSCRIPTION_KEYS: list(),
  JWT_SECRET: secret(),
  DATABASE_POOL_MIN: int(0, 0, 100),
  DATABASE_POOL_MAX: int(10, 1, 200),
  PORT: int(4000, 0, 65535),
  TOKEN_TTL_SECONDS: int(3600, 1, 7 * 24 * 3600),
  API_KEY_CACHE_SECONDS: int(30, 0, 60),
  SQLITE_BUSY_TIMEOUT_MS: int(5000, 0, 600_000),
  // docs/webhooks.md, "Settings"
  WEBHOOK_TIMEOUT_MS: int(15_000, 100, 120_000),
  WEBHOOK_LEASE_MS: int(undefined, 100, 3_600_000),
  WEBHOOK_RETRY_SCHEDULE: secondsList([5, 300, 1800, 7200, 18000, 36000, 36000], 7 * 24 * 3600),
  WEBHOOK_DISABLE_AFTER_HOURS: decimal(120, 24 * 365),
  WEBHOOK_ALLOWED_CIDRS: cidrs(),
  WEBHOOK_POLL_INTERVAL_MS: int(1000, 10, 60_000),
  WEBHOOK_CONCURRENCY: int(8, 1, 256),
  WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: int(2, 1, 256),
  WEBHOOK_CONCURRENCY_PER_HOST: int(4, 1, 256),
  WEBHOOK_RETENTION_DAYS: int(30, 0, 36_500),
  LICENSE_SCAN_INTERVAL_SECONDS: int(300, 1, 24 * 3600),
  LIVE_MAX_STREAMS_PER_KEY: int(10, 1, 100_000),
  LIVE_MAX_STREAMS: int(1000, 1, 100_000),
  // docs/security.md, "Limits"
  RATE_LIMIT_STORE: oneOf(RATE_LIMIT_STORES, 'memory'),
  REQUEST_TIMEOUT_MS: int(30_000, 100, 600_000),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1, 100 * 1024 * 1024),
  MAX_URL_LENGTH: int(8192, 64, 1024 * 1024),
  MAX_HEADER_BYTES: int(16 * 1024, 1024, 1024 * 1024),
  HEADERS_TIMEOUT_MS: int(10_000, 100, 600_000),
  RATE_LIMIT_PER_MINUTE: int(1200, 1, 10_000_000),
  TOKEN_RATE_LIMIT_PER_MINUTE: int(30, 1, 10_000_000),
  TOKEN_PREFIX_FAILURES_PER_MINUTE: int(10, 1, 10_000_000),
  TRUSTED_PROXIES: cidrs(),
  CORS_ORIGINS: origins(),
  GRAPHQL_MAX_DEPTH: int(10, 1, 1000),
  GRAPHQL_MAX_ALIASES: int(15, 0, 1000),
  GRAPHQL_MAX_TOKENS: int(2000, 10, 1_000_000),
  GRAPHQL_MAX_DIRECTIVES: int(10, 0, 1000),
  GRAPHQL_MAX_COST: int(60_000, 1, 10_000_000),
  GRAPHQL_BATCH_LIMIT: int(10, 1, 1000),
  GRAPHQL_INTROSPECTION: bool(),
  MAX_SUBSCRIPTIONS_PER_SUBSCRIBER: int(1000, 1, 1_000_000),
  // docs/operations.md
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 600_000),
  GRAPHQL_EXECUTOR: oneOf(GRAPHQL_EXECUTORS, 'compiled'),
  HEAP_GROWING_PERCENT: int(20, 0, 1000),
  YOUNG_GENERATION_MB: int(16, 0, 1024),
} satisfies Record<string, Variable<unknown>>;

export type ConfigVariable = keyof typeof CONFIG_VARIABLES;

type Values = { [K in ConfigVariable]: (typeof CONFIG_VARIABLES)[K] extends Variable<infer T> ? T : never };

type Env = Record<string, string | undefined>;

function readVariables(env: Env): Values {
  const values: Partial<Record<ConfigVariable, unknown>> = {};
  for (const [name, variable] of Object.entries(CONFIG_VARIABLES) as [ConfigVariable, Variable<unknown>][]) {
    const given = env[name];
    const raw = given === undefined || (!variable.emptyIsValue && given.trim() === '') ? variable.fallback : given;
    values[name] = raw === undefined ? undefined : variable.parse(raw, name);
  }
  // Each entry came from its own variable's parser, or is undefined where that variable has no fallback.
  return values as Values;
}

/** The configuration with nothing set: every default in one place. */
export function defaultConfig(): Config {
  return loadConfig({});
}

export function loadConfig(env: Env = process.env): Config {
  const v = readVariables(env);
  const database = v.DATABASE_URL;
  const production = v.NODE_ENV === 'production';
  // The demo key is public; production never falls back to it (and `serve` refuses to start).
  const demoSubscriptionKey = v.SUBSCRIPTION_KEYS === undefined && !production;
  if (v.DATABASE_POOL_MIN > v.DATABASE_POOL_MAX) throw new ConfigError('DATABASE_POOL_MIN: must not exceed DATABASE_POOL_MAX');
  if (v.WEBHOOK_LEASE_MS !== undefined && v.WEBHOOK_LEASE_MS <= v.WEBHOOK_TIMEOUT_MS) {
    throw new ConfigError('WEBHOOK_LEASE_MS: must be longer than WEBHOOK_TIMEOUT_MS');
  }
  if (v.RATE_LIMIT_STORE === 'postgres' && database.client !== 'pg') {
    throw new ConfigError('RATE_LIMIT_STORE: postgres needs a postgres:// DATABASE_URL');
  }
  return {
    database,
    dataDir:
      v.DATA_DIR ?? (database.client === 'sqlite' && database.filename !== ':memory:' ? dirname(database.filename) : resolve('data')),
    port: v.PORT,
    production,
    subscriptionKeys: v.SUBSCRIPTION_KEYS ?? (demoSubscriptionKey ? [DEMO_SUBSCRIPTION_KEY] : []),
    demoSubscriptionKey,
    jwtSecret: v.JWT_SECRET,
    tokenTtlSeconds: v.TOKEN_TTL_SECONDS,
    apiKeyCacheSeconds: v.API_KEY_CACHE_SECONDS,
    poolMin: v.DATABASE_POOL_MIN,
    poolMax: v.DATABASE_POOL_MAX,
    sqliteBusyTimeoutMs: v.SQLITE_BUSY_TIMEOUT_MS,
    corsOrigins: v.CORS_ORIGINS,
    webhooks: {
      retryScheduleSeconds: v.WEBHOOK_RETRY_SCHEDULE,
      disableAfterHours: v.WEBHOOK_DISABLE_AFTER_HOURS,
      allowedCidrs: v.WEBHOOK_ALLOWED_CIDRS,
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      pollIntervalMs: v.WEBHOOK_POLL_INTERVAL_MS,
      leaseMs: v.WEBHOOK_LEASE_MS ?? Math.max(MIN_DEFAULT_LEASE_MS, 2 * v.WEBHOOK_TIMEOUT_MS),
      concurrency: v.WEBHOOK_CONCURRENCY,
      concurrencyPerSubscription: v.WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION,
      concurrencyPerHost: v.WEBHOOK_CONCURRENCY_PER_HOST,
      retentionDays: v.WEBHOOK_RETENTION_DAYS,
      licenseScanIntervalSeconds: v.LICENSE_SCAN_INTERVAL_SECONDS,
    },
    live: {
      maxPerKey: v.LIVE_MAX_STREAMS_PER_KEY,
      maxStreams: v.LIVE_MAX_STREAMS,
    },
    limits: {
      bodyLimitBytes: v.BODY_LIMIT_BYTES,
      maxUrlLength: v.MAX_URL_LENGTH,
      maxHeaderBytes: v.MAX_HEADER_BYTES,
      requestTimeoutMs: v.REQUEST_TIMEOUT_MS,
      // Node refuses a headers time-out longer than the request time-out.
      headersTimeoutMs: Math.min(v.REQUEST_TIMEOUT_MS, v.HEADERS_TIMEOUT_MS),
      rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
      tokenRateLimitPerMinute: v.TOKEN_RATE_LIMIT_PER_MINUTE,
      tokenPrefixFailuresPerMinute: v.TOKEN_PREFIX_FAILURES_PER_MINUTE,
      trustedProxies: v.TRUSTED_PROXIES,
      rateLimitStore: v.RATE_LIMIT_STORE,
      graphql: {
        maxDepth: v.GRAPHQL_MAX_DEPTH,
        maxAliases: v.GRAPHQL_MAX_ALIASES,
        maxTokens: v.GRAPHQL_MAX_TOKENS,
        maxDirectives: v.GRAPHQL_MAX_DIRECTIVES,
        maxCost: v.GRAPHQL_MAX_COST,
        batchLimit: v.GRAPHQL_BATCH_LIMIT,
        introspection: v.GRAPHQL_INTROSPECTION ?? !production,
        fieldSuggestions: v.NODE_ENV === 'development',
        exposeLimits: !production,
      },
      maxSubscriptionsPerSubscriber: v.MAX_SUBSCRIPTIONS_PER_SUBSCRIBER,
      shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
      logLevel: v.LOG_LEVEL,
    },
    graphqlExecutor: v.GRAPHQL_EXECUTOR,
    heapGrowingPercent: v.HEAP_GROWING_PERCENT,
    youngGenerationMB: v.YOUNG_GENERATION_MB,
  };
}
