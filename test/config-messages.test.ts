import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

/**
 * The exact one-line messages operators see for a bad value, and the rules that tie variables
 * together. Start-up prints the message as is, so a change here is a change to the interface.
 */
describe('configuration messages', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be an integer from 0 to 65535, got "eighty"'],
    [{ PORT: ' 70000 ' }, 'PORT: must be an integer from 0 to 65535, got " 70000 "'],
    [{ DATABASE_POOL_MIN: '101' }, 'DATABASE_POOL_MIN: must be an integer from 0 to 100, got "101"'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX: must be an integer from 1 to 200, got "0"'],
    [{ TOKEN_TTL_SECONDS: '604801' }, 'TOKEN_TTL_SECONDS: must be an integer from 1 to 604800, got "604801"'],
    [{ API_KEY_CACHE_SECONDS: '61' }, 'API_KEY_CACHE_SECONDS: must be an integer from 0 to 60, got "61"'],
    [{ SQLITE_BUSY_TIMEOUT_MS: '1.5' }, 'SQLITE_BUSY_TIMEOUT_MS: must be an integer from 0 to 600000, got "1.5"'],
    [{ WEBHOOK_TIMEOUT_MS: '99' }, 'WEBHOOK_TIMEOUT_MS: must be an integer from 100 to 120000, got "99"'],
    [{ WEBHOOK_LEASE_MS: '3600001' }, 'WEBHOOK_LEASE_MS: must be an integer from 100 to 3600000, got "3600001"'],
    [{ WEBHOOK_POLL_INTERVAL_MS: '9' }, 'WEBHOOK_POLL_INTERVAL_MS: must be an integer from 10 to 60000, got "9"'],
    [{ WEBHOOK_CONCURRENCY: '257' }, 'WEBHOOK_CONCURRENCY: must be an integer from 1 to 256, got "257"'],
    [{ WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '0' }, 'WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: must be an integer from 1 to 256, got "0"'],
    [{ WEBHOOK_CONCURRENCY_PER_HOST: '2.5' }, 'WEBHOOK_CONCURRENCY_PER_HOST: must be an integer from 1 to 256, got "2.5"'],
    [{ WEBHOOK_RETENTION_DAYS: '36501' }, 'WEBHOOK_RETENTION_DAYS: must be an integer from 0 to 36500, got "36501"'],
    [{ LICENSE_SCAN_INTERVAL_SECONDS: '0' }, 'LICENSE_SCAN_INTERVAL_SECONDS: must be an integer from 1 to 86400, got "0"'],
    [{ LIVE_MAX_STREAMS_PER_KEY: '100001' }, 'LIVE_MAX_STREAMS_PER_KEY: must be an integer from 1 to 100000, got "100001"'],
    [{ LIVE_MAX_STREAMS: 'many' }, 'LIVE_MAX_STREAMS: must be an integer from 1 to 100000, got "many"'],
    [{ REQUEST_TIMEOUT_MS: '600001' }, 'REQUEST_TIMEOUT_MS: must be an integer from 100 to 600000, got "600001"'],
    [{ HEADERS_TIMEOUT_MS: '99' }, 'HEADERS_TIMEOUT_MS: must be an integer from 100 to 600000, got "99"'],
    [{ BODY_LIMIT_BYTES: '0' }, 'BODY_LIMIT_BYTES: must be an integer from 1 to 104857600, got "0"'],
    [{ MAX_URL_LENGTH: '63' }, 'MAX_URL_LENGTH: must be an integer from 64 to 1048576, got "63"'],
    [{ MAX_HEADER_BYTES: '1023' }, 'MAX_HEADER_BYTES: must be an integer from 1024 to 1048576, got "1023"'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE: must be an integer from 1 to 10000000, got "0"'],
    [{ TOKEN_RATE_LIMIT_PER_MINUTE: '-1' }, 'TOKEN_RATE_LIMIT_PER_MINUTE: must be an integer from 1 to 10000000, got "-1"'],
    [{ TOKEN_PREFIX_FAILURES_PER_MINUTE: '10000001' }, 'TOKEN_PREFIX_FAILURES_PER_MINUTE: must be an integer from 1 to 10000000, got "10000001"'],
    [{ GRAPHQL_MAX_DEPTH: '0' }, 'GRAPHQL_MAX_DEPTH: must be an integer from 1 to 1000, got "0"'],
    [{ GRAPHQL_MAX_ALIASES: '1001' }, 'GRAPHQL_MAX_ALIASES: must be an integer from 0 to 1000, got "1001"'],
    [{ GRAPHQL_MAX_TOKENS: '9' }, 'GRAPHQL_MAX_TOKENS: must be an integer from 10 to 1000000, got "9"'],
    [{ GRAPHQL_MAX_DIRECTIVES: '-1' }, 'GRAPHQL_MAX_DIRECTIVES: must be an integer from 0 to 1000, got "-1"'],
    [{ GRAPHQL_MAX_COST: '0' }, 'GRAPHQL_MAX_COST: must be an integer from 1 to 10000000, got "0"'],
    [{ GRAPHQL_BATCH_LIMIT: '1001' }, 'GRAPHQL_BATCH_LIMIT: must be an integer from 1 to 1000, got "1001"'],
    [{ SHUTDOWN_TIMEOUT_MS: 'soon' }, 'SHUTDOWN_TIMEOUT_MS: must be an integer from 0 to 600000, got "soon"'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,soon' }, 'WEBHOOK_RETRY_SCHEDULE: must be comma-separated seconds (0 to 604800), got "5,soon"'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,604801' }, 'WEBHOOK_RETRY_SCHEDULE: must be comma-separated seconds (0 to 604800), got "5,604801"'],
    [{ WEBHOOK_DISABLE_AFTER_HOURS: '-1' }, 'WEBHOOK_DISABLE_AFTER_HOURS: must be a number from 0 to 8760, got "-1"'],
    [{ WEBHOOK_DISABLE_AFTER_HOURS: '8761' }, 'WEBHOOK_DISABLE_AFTER_HOURS: must be a number from 0 to 8760, got "8761"'],
    [{ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1' }, 'WEBHOOK_ALLOWED_CIDRS: "127.0.0.1" is not a CIDR range such as 127.0.0.0/8'],
    [{ WEBHOOK_ALLOWED_CIDRS: '10.0.0.0/8, ::1/129' }, 'WEBHOOK_ALLOWED_CIDRS: "::1/129" is not a CIDR range such as 127.0.0.0/8'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8, lb/8' }, 'TRUSTED_PROXIES: "lb/8" is not a CIDR range such as 127.0.0.0/8'],
    [{ TRUSTED_PROXIES: ',' }, 'TRUSTED_PROXIES: must list at least one value'],
    [{ SUBSCRIPTION_KEYS: '' }, 'SUBSCRIPTION_KEYS: must list at least one value'],
    [{ SUBSCRIPTION_KEYS: ' , ' }, 'SUBSCRIPTION_KEYS: must list at least one value'],
    [{ JWT_SECRET: '  ' }, 'JWT_SECRET: must not be empty (unset it to have a secret generated)'],
    [{ DATABASE_URL: '' }, 'DATABASE_URL: must not be empty'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL: unsupported scheme (use sqlite:PATH, a file path, or postgres://…)'],
    [{ DATABASE_URL: 'postgres://u@h:bad/d' }, 'DATABASE_URL: not a valid PostgreSQL URL'],
    [{ DATABASE_URL: 'file:' }, 'DATABASE_URL: file: needs a path'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL: sqlite: needs a file path'],
    [{ RATE_LIMIT_STORE: ' redis ' }, 'RATE_LIMIT_STORE: must be memory or postgres, got "redis"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ GRAPHQL_INTROSPECTION: ' Maybe ' }, 'GRAPHQL_INTROSPECTION: must be true or false, got " Maybe "'],
    [{ MAX_SUBSCRIPTIONS_PER_SUBSCRIBER: '0' }, 'MAX_SUBSCRIPTIONS_PER_SUBSCRIBER: must be an integer from 1 to 1000000, got "0"'],
    [{ GRAPHQL_EXECUTOR: 'jit' }, 'GRAPHQL_EXECUTOR: must be compiled or standard, got "jit"'],
    [{ HEAP_GROWING_PERCENT: '-1' }, 'HEAP_GROWING_PERCENT: must be an integer from 0 to 1000, got "-1"'],
    [{ YOUNG_GENERATION_MB: '2048' }, 'YOUNG_GENERATION_MB: must be an integer from 0 to 1024, got "2048"'],
    // Rules between variables.
    [{ WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_LEASE_MS: '60000' }, 'WEBHOOK_LEASE_MS: must be longer than WEBHOOK_TIMEOUT_MS'],
    [{ DATABASE_POOL_MIN: '11' }, 'DATABASE_POOL_MIN: must not exceed DATABASE_POOL_MAX'],
    [{ DATABASE_POOL_MIN: '3', DATABASE_POOL_MAX: '2' }, 'DATABASE_POOL_MIN: must not exceed DATABASE_POOL_MAX'],
    [{ RATE_LIMIT_STORE: 'postgres' }, 'RATE_LIMIT_STORE: postgres needs a postgres:// DATABASE_URL'],
    [{ RATE_LIMIT_STORE: 'postgres', DATABASE_URL: 'sqlite::memory:' }, 'RATE_LIMIT_STORE: postgres needs a postgres:// DATABASE_URL'],
  ])('refuses %j with its one line', (env, message) => {
    let thrown: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).message).toBe(message);
  });

  it('treats an empty or blank value as unset, except where empty is a mistake', () => {
    const blank = {
      PORT: '',
      WEBHOOK_RETRY_SCHEDULE: ' ',
      WEBHOOK_DISABLE_AFTER_HOURS: '',
      WEBHOOK_ALLOWED_CIDRS: ' ',
      WEBHOOK_LEASE_MS: '',
      TRUSTED_PROXIES: '',
      RATE_LIMIT_STORE: ' ',
      LOG_LEVEL: '',
      GRAPHQL_INTROSPECTION: ' ',
      GRAPHQL_EXECUTOR: '',
      DATA_DIR: ' ',
      NODE_ENV: '',
    };
    expect(loadConfig(blank)).toEqual(loadConfig({}));
  });

  it('derives the lease from the time-out, and only checks a lease that was set', () => {
    expect(loadConfig({}).webhooks.leaseMs).toBe(60_000);
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '45000' }).webhooks.leaseMs).toBe(90_000);
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '45000', WEBHOOK_LEASE_MS: '45001' }).webhooks.leaseMs).toBe(45_001);
  });

  it('never lets the header time-out exceed the request time-out', () => {
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).limits).toMatchObject({ requestTimeoutMs: 5000, headersTimeoutMs: 5000 });
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '600000' }).limits).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 30_000 });
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '2000' }).limits.headersTimeoutMs).toBe(2000);
  });

  it('runs the REST reads compiled unless GRAPHQL_EXECUTOR=standard', () => {
    expect(loadConfig({}).graphqlExecutor).toBe('compiled');
    expect(loadConfig({ GRAPHQL_EXECUTOR: ' standard ' }).graphqlExecutor).toBe('standard');
  });

  it('shares rate limits through PostgreSQL only on a postgres:// database', () => {
    expect(loadConfig({ RATE_LIMIT_STORE: 'postgres', DATABASE_URL: 'postgres://u@h/d' }).limits.rateLimitStore).toBe('postgres');
  });

  it('switches GraphQL details by NODE_ENV, with GRAPHQL_INTROSPECTION overriding introspection', () => {
    const pick = (env: Record<string, string>) => {
      const { introspection, fieldSuggestions, exposeLimits } = loadConfig(env).limits.graphql;
      return { introspection, fieldSuggestions, exposeLimits };
    };
    expect(pick({})).toEqual({ introspection: true, fieldSuggestions: false, exposeLimits: true });
    expect(pick({ NODE_ENV: 'development' })).toEqual({ introspection: true, fieldSuggestions: true, exposeLimits: true });
    expect(pick({ NODE_ENV: 'production' })).toEqual({ introspection: false, fieldSuggestions: false, exposeLimits: false });
    expect(pick({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'TRUE' })).toMatchObject({ introspection: true });
    expect(pick({ GRAPHQL_INTROSPECTION: '0' })).toMatchObject({ introspection: false });
    expect(pick({ GRAPHQL_INTROSPECTION: '1' })).toMatchObject({ introspection: true });
    expect(pick({ NODE_ENV: ' production' })).toMatchObject({ exposeLimits: true });
  });

  it('keeps data next to the SQLite file unless DATA_DIR says otherwise', () => {
    expect(loadConfig({ DATABASE_URL: '/tmp/a/b.sqlite' }).dataDir).toBe('/tmp/a');
    expect(loadConfig({ DATABASE_URL: '/tmp/a/b.sqlite', DATA_DIR: ' /tmp/c ' }).dataDir).toBe('/tmp/c');
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).dataDir).toMatch(/\/data$/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/d' }).dataDir).toMatch(/\/data$/);
  });

  it('keeps a JWT_SECRET exactly as given, spaces included', () => {
    expect(loadConfig({ JWT_SECRET: ' s3cret ' }).jwtSecret).toBe(' s3cret ');
  });

  it('reads every default the documentation gives', () => {
    expect(loadConfig({})).toEqual({
      database: { client: 'sqlite', filename: expect.stringMatching(/\/data\/shiftgate\.sqlite$/) },
      dataDir: expect.stringMatching(/\/data$/),
      port: 4000,
      production: false,
      subscriptionKeys: ['demo-subscription-key'],
      demoSubscriptionKey: true,
      jwtSecret: undefined,
      tokenTtlSeconds: 3600,
      apiKeyCacheSeconds: 30,
      poolMin: 0,
      poolMax: 10,
      sqliteBusyTimeoutMs: 5000,
      webhooks: {
        retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
        disableAfterHours: 120,
        allowedCidrs: [],
        timeoutMs: 15_000,
        pollIntervalMs: 1000,
        leaseMs: 60_000,
        concurrency: 8,
        concurrencyPerSubscription: 2,
        concurrencyPerHost: 4,
        retentionDays: 30,
        licenseScanIntervalSeconds: 300,
      },
      live: { maxPerKey: 10, maxStreams: 1000 },
      limits: {
        bodyLimitBytes: 1_048_576,
        maxUrlLength: 8192,
        maxHeaderBytes: 16_384,
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 10_000,
        rateLimitPerMinute: 1200,
        tokenRateLimitPerMinute: 30,
        tokenPrefixFailuresPerMinute: 10,
        trustedProxies: [],
        rateLimitStore: 'memory',
        graphql: {
          maxDepth: 10,
          maxAliases: 15,
          maxTokens: 2000,
          maxDirectives: 10,
          maxCost: 60000,
          batchLimit: 10,
          introspection: true,
          fieldSuggestions: false,
          exposeLimits: true,
        },
        maxSubscriptionsPerSubscriber: 1000,
        shutdownTimeoutMs: 10_000,
        logLevel: 'info',
      },
      graphqlExecutor: 'compiled',
      heapGrowingPercent: 20,
      youngGenerationMB: 16,
    });
  });

  it('reads values with the spaces around them trimmed', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      WEBHOOK_RETRY_SCHEDULE: ' 0.5, 2 ,3',
      WEBHOOK_DISABLE_AFTER_HOURS: ' 1.5 ',
      WEBHOOK_ALLOWED_CIDRS: ' 127.0.0.0/8 , ::1/128 ',
      SUBSCRIPTION_KEYS: ' a ,, b ',
      RATE_LIMIT_STORE: ' memory ',
      LOG_LEVEL: ' warn ',
      GRAPHQL_INTROSPECTION: ' False ',
      DATABASE_URL: ' sqlite::memory: ',
    });
    expect(config.port).toBe(8080);
    expect(config.webhooks.retryScheduleSeconds).toEqual([0.5, 2, 3]);
    expect(config.webhooks.disableAfterHours).toBe(1.5);
    expect(config.webhooks.allowedCidrs).toEqual(['127.0.0.0/8', '::1/128']);
    expect(config.subscriptionKeys).toEqual(['a', 'b']);
    expect(config.limits.rateLimitStore).toBe('memory');
    expect(config.limits.logLevel).toBe('warn');
    expect(config.limits.graphql.introspection).toBe(false);
    expect(config.database).toEqual({ client: 'sqlite', filename: ':memory:' });
  });
});
