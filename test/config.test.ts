import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }],
    ['DATABASE_URL', { DATABASE_URL: '' }],
    ['SUBSCRIPTION_KEYS', { SUBSCRIPTION_KEYS: ' , ' }],
    ['JWT_SECRET', { JWT_SECRET: '' }],
    ['TOKEN_TTL_SECONDS', { TOKEN_TTL_SECONDS: '0' }],
    ['API_KEY_CACHE_SECONDS', { API_KEY_CACHE_SECONDS: '61' }],
    ['SQLITE_BUSY_TIMEOUT_MS', { SQLITE_BUSY_TIMEOUT_MS: '-1' }],
    ['SQLITE_BUSY_TIMEOUT_MS', { SQLITE_BUSY_TIMEOUT_MS: '1.5' }],
    ['SQLITE_BUSY_TIMEOUT_MS', { SQLITE_BUSY_TIMEOUT_MS: '600001' }],
  ])('refuses a bad %s with a message naming it', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${name}: `));
  });

  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.tokenTtlSeconds).toBe(3600);
    expect(config.database).toEqual({ client: 'sqlite', filename: expect.stringMatching(/data\/shiftgate\.sqlite$/) });
    expect(config.subscriptionKeys).toEqual(['demo-subscription-key']);
    expect(config.production).toBe(false);
    expect(config.jwtSecret).toBeUndefined();
    expect(config.sqliteBusyTimeoutMs).toBe(5000);
  });

  it('takes SQLITE_BUSY_TIMEOUT_MS in milliseconds, 0 meaning "do not wait"', () => {
    expect(loadConfig({ SQLITE_BUSY_TIMEOUT_MS: '250' }).sqliteBusyTimeoutMs).toBe(250);
    expect(loadConfig({ SQLITE_BUSY_TIMEOUT_MS: '0' }).sqliteBusyTimeoutMs).toBe(0);
  });

  it('accepts the demo subscription key when SUBSCRIPTION_KEYS is unset, except in production', () => {
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ production: false, demoSubscriptionKey: true, subscriptionKeys: ['demo-subscription-key'] });
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ production: true, demoSubscriptionKey: false, subscriptionKeys: [] });
    expect(loadConfig({ NODE_ENV: 'production', SUBSCRIPTION_KEYS: 'a, b' })).toMatchObject({ demoSubscriptionKey: false, subscriptionKeys: ['a', 'b'] });
    expect(loadConfig({ SUBSCRIPTION_KEYS: 'a' })).toMatchObject({ production: false, demoSubscriptionKey: false, subscriptionKeys: ['a'] });
  });

  it('takes a bare file path, sqlite: URLs and postgres URLs', () => {
    expect(loadConfig({ DATABASE_URL: './x.sqlite' }).database).toEqual({ client: 'sqlite', filename: expect.stringMatching(/\/x\.sqlite$/) });
    expect(loadConfig({ DATABASE_URL: 'sqlite:./y.db' }).database).toEqual({ client: 'sqlite', filename: expect.stringMatching(/\/y\.db$/) });
    expect(loadConfig({ DATABASE_URL: 'file:///tmp/z.sqlite' }).database).toEqual({ client: 'sqlite', filename: '/tmp/z.sqlite' });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/d' }).database).toEqual({ client: 'pg', connectionString: 'postgres://u@h:5432/d' });
  });

  it('accepts a short JWT_SECRET (start-up warns about it)', () => {
    expect(loadConfig({ JWT_SECRET: 'short-secret' }).jwtSecret).toBe('short-secret');
  });

  it('stops the CLI with exit 1 and one line naming the variable', () => {
    const run = spawnSync(process.execPath, ['bin/shiftgate.js', 'serve'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'sqlite::memory:' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });
});
