import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { nextAttemptDelayMs, parseRetryAfter } from '../../src/webhooks/retry-schedule.js';

describe('webhook configuration', () => {
  it('has the pinned defaults', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks.retryScheduleSeconds).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(webhooks.disableAfterHours).toBe(120);
    expect(webhooks.timeoutMs).toBe(15_000);
    expect(webhooks.licenseScanIntervalSeconds).toBe(300);
    expect(webhooks.allowedCidrs).toEqual([]);
    expect(webhooks.concurrency).toBe(8);
    expect(webhooks.concurrencyPerSubscription).toBe(2);
    expect(webhooks.concurrencyPerHost).toBe(4);
    expect(webhooks.retentionDays).toBe(30);
  });

  it('reads the per-subscription and per-host caps and the retention period', () => {
    const { webhooks } = loadConfig({
      WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '3',
      WEBHOOK_CONCURRENCY_PER_HOST: ' 5 ',
      WEBHOOK_RETENTION_DAYS: '7',
    });
    expect(webhooks).toMatchObject({ concurrencyPerSubscription: 3, concurrencyPerHost: 5, retentionDays: 7 });
    expect(loadConfig({ WEBHOOK_RETENTION_DAYS: '0' }).webhooks.retentionDays).toBe(0);
  });

  it.each([
    ['WEBHOOK_RETRY_SCHEDULE', '5,soon'],
    ['WEBHOOK_DISABLE_AFTER_HOURS', '-1'],
    ['WEBHOOK_ALLOWED_CIDRS', '127.0.0.1'],
    ['WEBHOOK_ALLOWED_CIDRS', '10.0.0.0/33'],
    ['WEBHOOK_TIMEOUT_MS', 'fast'],
    ['LICENSE_SCAN_INTERVAL_SECONDS', '0'],
    ['WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION', '0'],
    ['WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION', 'many'],
    ['WEBHOOK_CONCURRENCY_PER_HOST', '0'],
    ['WEBHOOK_CONCURRENCY_PER_HOST', '2.5'],
    ['WEBHOOK_RETENTION_DAYS', '-1'],
    ['WEBHOOK_RETENTION_DAYS', 'forever'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}:`));
  });

  it('spaces retries by the schedule with a little jitter, Retry-After as a floor', () => {
    const schedule = [5, 300];
    expect(nextAttemptDelayMs(schedule, 1, null, () => 0.5)).toBe(5000);
    expect(nextAttemptDelayMs(schedule, 1, null, () => 0)).toBe(4500);
    expect(nextAttemptDelayMs(schedule, 1, null, () => 1)).toBe(5500);
    expect(nextAttemptDelayMs(schedule, 2, 600_000, () => 0.5)).toBe(600_000);
    expect(nextAttemptDelayMs(schedule, 3, null)).toBeNull();
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });
});
