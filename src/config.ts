import { dirname, resolve } from 'node:path';
import { z } from 'zod';

/** Invalid configuration: the message is one line that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type DatabaseConfig = { client: 'sqlite'; filename: string } | { client: 'pg'; connectionString: string };
export const DEMO_SUBSCRIPTION_KEY = 'demo-subscription-key';
/** HS256 wants a key of at least 256 bits; a shorter JWT_SECRET works but start-up warns about it. */
export const RECOMMENDED_JWT_SECRET_LENGTH = 32;

/** The error for a value out of range: what is wanted, then the value as given. */
const got = (wanted: string) => ({ error: (issue: { input?: unknown }) => `${wanted}, got "${String(issue.input)}"` });
const DECIMAL = /^\s*[0-9]+(\.[0-9]+)?\s*$/;
const items = (raw: string) => raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
const AT_LEAST_ONE = 'must list at least one value';

/** An integer from min to max. */
const int = (min: number, max: number) =>
  z
    .string()
    .refine((raw) => Number.isInteger(Number(raw)) && Number(raw) >= min && Number(raw) <= max, got(`must be an integer from ${min} to ${max}`))
    .transform(Number);
/** A number from 0 to max, in plain decimal. */
const decimal = (max: number) => z.string().refine((raw) => DECIMAL.test(raw) && Number(raw) <= max, got(`must be a number from 0 to ${max}`)).transform(Number);
/** Comma-separated seconds; fractions are allowed so tests can compress a schedule to milliseconds. */
const seconds = (max: number) =>
  z.string().refine((raw) => raw.split(',').every((s) => DECIMAL.test(s) && Number(s) <= max), got(`must be comma-separated seconds (0 to ${max})`))
    .transform((raw) => raw.split(',').map(Number));
/** One of a fixed set of words, spaces around it ignored. */
const oneOf = <const V extends readonly [string, ...string[]]>(values: V) =>
  z.string().trim().pipe(z.enum(values, got(`must be ${values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`}`)));
/** Comma-separated values, each trimmed; blank is none, but commas alone are a mistake. */
const list = <T>(item: z.ZodType<T, string>) =>
  z.string().refine((raw) => raw.trim() === '' || items(raw).length > 0, AT_LEAST_ONE).transform(items).pipe(z.array(item));
const cidr = z.union([z.cidrv4(), z.cidrv6()], { error: (issue) => `"${String(issue.input)}" is not a CIDR range such as 127.0.0.0/8` });
/** A browser origin (scheme://host[:port], as a browser sends it in `Origin`), or `*`. */
const origin = z.string().refine((item) => item === '*' || (/^https?:\/\//.test(item) && URL.canParse(item) && new URL(item).origin === item), {
  error: (issue) => `"${String(issue.input)}" is not an origin such as https://app.example.com or http://localhost:3000`,
});

/** sqlite:PATH, file:PATH or a bare path name a SQLite file (`:memory:` for none); postgres://… a PostgreSQL database. */
const databaseUrl = z.string().trim().min(1, 'must not be empty').transform((url, ctx): DatabaseConfig => {
  const refuse = (message: string) => {
    ctx.issues.push({ code: 'custom', message, input: url });
    return z.NEVER;
  };
  if (/^postgres(ql)?:\/\//i.test(url)) return URL.canParse(url) ? { client: 'pg', connectionString: url } : refuse('not a valid PostgreSQL URL');
  const prefix = /^(?:(file)|sqlite):(?:\/\/)?/i.exec(url);
  const path = url.slice(prefix?.[0].length ?? 0);
  if (prefix && path === '') return refuse(prefix[1] ? 'file: needs a path' : 'sqlite: needs a file path');
  if (!prefix && /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return refuse('unsupported scheme (use sqlite:PATH, a file path, or postgres://…)');
  return { client: 'sqlite', filename: path === ':memory:' && !prefix?.[1] ? path : resolve(path) };
});

/** Variables where an empty value is a value (refused, or "none"); for every other one, empty or blank means unset. */
const EMPTY_IS_A_VALUE = new Set(['DATABASE_URL', 'SUBSCRIPTION_KEYS', 'JWT_SECRET', 'CORS_ORIGINS']);
const unsetBlanks = (env: Env) =>
  Object.fromEntries(Object.entries(env).filter(([name, raw]) => EMPTY_IS_A_VALUE.has(name) || raw?.trim() !== ''));

/**
 * Every environment variable shiftgate reads: its parser, its range and its default, spelt as in
 * the environment and parsed like a given value (zod's prefault). A bad value's one-line error
 * repeats the range; loadConfig puts the variable's name first, and the first bad variable in
 * this order is the one reported. Each is documented in a settings table (README.md, docs/*.md);
 * test/config-docs.test.ts keeps the two in step through this schema's input JSON Schema.
 */
export const configSchema = z.preprocess(
  unsetBlanks,
  z
    .object({
      // README.md, "Configuration"
      NODE_ENV: z.string().optional(),
      DATABASE_URL: databaseUrl.prefault('sqlite:./data/shiftgate.sqlite'),
      DATA_DIR: z.string().transform((dir) => resolve(dir.trim())).optional(),
      SUBSCRIPTION_KEYS: z.string().transform(items).pipe(z.array(z.string()).min(1, AT_LEAST_ONE)).optional(),
      JWT_SECRET: z.string().refine((secret) => secret.trim() !== '', 'must not be empty (unset it to have a secret generated)').optional(),
      DATABASE_POOL_MIN: int(0, 100).prefault('0'),
      DATABASE_POOL_MAX: int(1, 200).prefault('10'),
      PORT: int(0, 65535).prefault('4000'),
      TOKEN_TTL_SECONDS: int(1, 7 * 24 * 3600).prefault('3600'),
      API_KEY_CACHE_SECONDS: int(0, 60).prefault('30'),
      SQLITE_BUSY_TIMEOUT_MS: int(0, 600_000).prefault('5000'),
      // docs/webhooks.md, "Settings"
      WEBHOOK_TIMEOUT_MS: int(100, 120_000).prefault('15000'),
      WEBHOOK_LEASE_MS: int(100, 3_600_000).optional(),
      WEBHOOK_RETRY_SCHEDULE: seconds(7 * 24 * 3600).prefault('5,300,1800,7200,18000,36000,36000'),
      WEBHOOK_DISABLE_AFTER_HOURS: decimal(24 * 365).prefault('120'),
      WEBHOOK_ALLOWED_CIDRS: list(cidr).prefault(''),
      WEBHOOK_POLL_INTERVAL_MS: int(10, 60_000).prefault('1000'),
      WEBHOOK_CONCURRENCY: int(1, 256).prefault('8'),
      WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: int(1, 256).prefault('2'),
      WEBHOOK_CONCURRENCY_PER_HOST: int(1, 256).prefault('4'),
      WEBHOOK_RETENTION_DAYS: int(0, 36_500).prefault('30'),
      LICENSE_SCAN_INTERVAL_SECONDS: int(1, 24 * 3600).prefault('300'),
      LIVE_MAX_STREAMS_PER_KEY: int(1, 100_000).prefault('10'),
      LIVE_MAX_STREAMS: int(1, 100_000).prefault('1000'),
      // docs/security.md, "Limits"
      RATE_LIMIT_STORE: oneOf(['memory', 'postgres']).prefault('memory'),
      REQUEST_TIMEOUT_MS: int(100, 600_000).prefault('30000'),
      BODY_LIMIT_BYTES: int(1, 100 * 1024 * 1024).prefault('1048576'),
      MAX_URL_LENGTH: int(64, 1024 * 1024).prefault('8192'),
      MAX_HEADER_BYTES: int(1024, 1024 * 1024).prefault('16384'),
      HEADERS_TIMEOUT_MS: int(100, 600_000).prefault('10000'),
      RATE_LIMIT_PER_MINUTE: int(1, 10_000_000).prefault('1200'),
      TOKEN_RATE_LIMIT_PER_MINUTE: int(1, 10_000_000).prefault('30'),
      TOKEN_PREFIX_FAILURES_PER_MINUTE: int(1, 10_000_000).prefault('10'),
      TRUSTED_PROXIES: list(cidr).prefault(''),
      CORS_ORIGINS: z.string().refine((raw) => !items(raw).includes('*') || items(raw).length === 1, got('"*" must stand alone')).pipe(list(origin)).optional(),
      GRAPHQL_MAX_DEPTH: int(1, 1000).prefault('10'),
      GRAPHQL_MAX_ALIASES: int(0, 1000).prefault('15'),
      GRAPHQL_MAX_TOKENS: int(10, 1_000_000).prefault('2000'),
      GRAPHQL_MAX_DIRECTIVES: int(0, 1000).prefault('10'),
      GRAPHQL_MAX_COST: int(1, 10_000_000).prefault('60000'),
      GRAPHQL_BATCH_LIMIT: int(1, 1000).prefault('10'),
      GRAPHQL_INTROSPECTION: z.string().refine((raw) => /^\s*(true|false|1|0)\s*$/i.test(raw), got('must be true or false'))
        .transform((raw) => /^\s*(true|1)\s*$/i.test(raw)).optional(),
      MAX_SUBSCRIPTIONS_PER_SUBSCRIBER: int(1, 1_000_000).prefault('1000'),
      // docs/operations.md
      LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).prefault('info'),
      SHUTDOWN_TIMEOUT_MS: int(0, 600_000).prefault('10000'),
      GRAPHQL_EXECUTOR: oneOf(['compiled', 'standard']).prefault('compiled'),
      HEAP_GROWING_PERCENT: int(0, 1000).prefault('20'),
      YOUNG_GENERATION_MB: int(0, 1024).prefault('16'),
    })
    .refine((v) => v.DATABASE_POOL_MIN <= v.DATABASE_POOL_MAX, { path: ['DATABASE_POOL_MIN'], error: 'must not exceed DATABASE_POOL_MAX' })
    .refine((v) => (v.WEBHOOK_LEASE_MS ?? Infinity) > v.WEBHOOK_TIMEOUT_MS, { path: ['WEBHOOK_LEASE_MS'], error: 'must be longer than WEBHOOK_TIMEOUT_MS' })
    .refine((v) => v.RATE_LIMIT_STORE !== 'postgres' || v.DATABASE_URL.client === 'pg', { path: ['RATE_LIMIT_STORE'], error: 'postgres needs a postgres:// DATABASE_URL' })
    .transform((v) => {
      const database = v.DATABASE_URL;
      const production = v.NODE_ENV === 'production';
      // The demo key is public; production never falls back to it (and `serve` refuses to start).
      const demoSubscriptionKey = v.SUBSCRIPTION_KEYS === undefined && !production;
      return {
        database,
        /** Where the generated JWT secret (and other local state) is kept. */
        dataDir: v.DATA_DIR ?? (database.client === 'sqlite' && database.filename !== ':memory:' ? dirname(database.filename) : resolve('data')),
        port: v.PORT,
        /** NODE_ENV=production: no demo credentials, and `serve` refuses to start without real ones. */
        production,
        /** Accepted values of the external-gh-apim-sub-key header (none in production without SUBSCRIPTION_KEYS). */
        subscriptionKeys: v.SUBSCRIPTION_KEYS ?? (demoSubscriptionKey ? [DEMO_SUBSCRIPTION_KEY] : []),
        /** True when SUBSCRIPTION_KEYS was not set outside production, so the demo key is accepted. */
        demoSubscriptionKey,
        /** Undefined means: generate once and keep it in dataDir. */
        jwtSecret: v.JWT_SECRET,
        tokenTtlSeconds: v.TOKEN_TTL_SECONDS,
        /** How long a verified API key's state is reused before it is read again (revocation delay). */
        apiKeyCacheSeconds: v.API_KEY_CACHE_SECONDS,
        poolMin: v.DATABASE_POOL_MIN,
        poolMax: v.DATABASE_POOL_MAX,
        sqliteBusyTimeoutMs: v.SQLITE_BUSY_TIMEOUT_MS,
        /** Origins a browser may call the APIs from (`*` for any); undefined when unset: none, except that `serve --demo` allows any. */
        corsOrigins: v.CORS_ORIGINS,
        /** Webhook delivery and the license-expiry scheduler (docs/webhooks.md). */
        webhooks: {
          /** Seconds to wait before each retry; its length is the number of retries. */
          retryScheduleSeconds: v.WEBHOOK_RETRY_SCHEDULE,
          /** A subscription whose deliveries have all failed for this long is deactivated. */
          disableAfterHours: v.WEBHOOK_DISABLE_AFTER_HOURS,
          /** CIDR ranges exempt from the SSRF guard (tests, on-premise receivers). */
          allowedCidrs: v.WEBHOOK_ALLOWED_CIDRS,
          timeoutMs: v.WEBHOOK_TIMEOUT_MS,
          pollIntervalMs: v.WEBHOOK_POLL_INTERVAL_MS,
          /** How long a claimed delivery belongs to one dispatcher; unset: 60 s, or twice the time-out if longer. */
          leaseMs: v.WEBHOOK_LEASE_MS ?? Math.max(60_000, 2 * v.WEBHOOK_TIMEOUT_MS),
          concurrency: v.WEBHOOK_CONCURRENCY,
          /** Sends in flight at once to one subscription, so one receiver cannot take the whole pool. */
          concurrencyPerSubscription: v.WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION,
          /** Sends in flight at once to one destination (host and port), across its subscriptions. */
          concurrencyPerHost: v.WEBHOOK_CONCURRENCY_PER_HOST,
          /** Finished deliveries, their attempts and spent events are deleted after this many days; 0 keeps them. */
          retentionDays: v.WEBHOOK_RETENTION_DAYS,
          licenseScanIntervalSeconds: v.LICENSE_SCAN_INTERVAL_SECONDS,
        },
        /** Caps on GraphQL live-event streams on this instance: per API key, and all keys together. */
        live: { maxPerKey: v.LIVE_MAX_STREAMS_PER_KEY, maxStreams: v.LIVE_MAX_STREAMS },
        /** Per-request work limits, rate limits, time-outs and logging (docs/security.md, docs/operations.md). */
        limits: {
          bodyLimitBytes: v.BODY_LIMIT_BYTES,
          maxUrlLength: v.MAX_URL_LENGTH,
          maxHeaderBytes: v.MAX_HEADER_BYTES,
          /** Whole request (headers and body) must arrive within this; slow clients get 408. */
          requestTimeoutMs: v.REQUEST_TIMEOUT_MS,
          /** Node refuses a headers time-out longer than the request time-out. */
          headersTimeoutMs: Math.min(v.REQUEST_TIMEOUT_MS, v.HEADERS_TIMEOUT_MS),
          /** Requests per minute per API key (REST and GraphQL together). */
          rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
          /** Token requests per minute per client address, refused or not. */
          tokenRateLimitPerMinute: v.TOKEN_RATE_LIMIT_PER_MINUTE,
          /** Refused API keys per minute per stored key prefix, from all addresses together. */
          tokenPrefixFailuresPerMinute: v.TOKEN_PREFIX_FAILURES_PER_MINUTE,
          /** Proxies whose X-Forwarded-For is believed: only a request whose socket peer is in one is attributed to the address it forwards for. */
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
            /** Whether armor errors name the configured limit (never in production). */
            exposeLimits: !production,
          },
          /** Subscriptions one subscriber may have (deleted ones aside): bounds one event's fan-out. */
          maxSubscriptionsPerSubscriber: v.MAX_SUBSCRIPTIONS_PER_SUBSCRIBER,
          shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
          logLevel: v.LOG_LEVEL,
        },
        /** How the gateway runs its own checked-in read operations (docs/operations.md, "GraphQL executor"). */
        graphqlExecutor: v.GRAPHQL_EXECUTOR,
        /** How far V8 lets the heap grow past what it held after a collection, in percent; 0 leaves V8's own factor. */
        heapGrowingPercent: v.HEAP_GROWING_PERCENT,
        /** The most V8's young generation may grow to, in MB; 0 leaves V8's own ceiling. */
        youngGenerationMB: v.YOUNG_GENERATION_MB,
      };
    }),
);

export type Config = z.output<typeof configSchema>;
export type WebhookConfig = Config['webhooks'];
export type LiveConfig = Config['live'];
export type LimitsConfig = Config['limits'];
type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw new ConfigError(`${String(issue?.path[0])}: ${issue?.message}`);
}

/** The configuration with nothing set: every default in one place. */
export function defaultConfig(): Config {
  return loadConfig({});
}
