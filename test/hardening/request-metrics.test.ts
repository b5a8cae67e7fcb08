import { describe, expect, it } from 'vitest';
import { metricsText, recordRequest, recordWebhookAttempt } from '../../src/shared/observability/metrics.js';

function requestsTotal(text: string, route: string, method: string, status: number): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`shiftgate_http_requests_total{route="${route}",method="${method}",status="${status}"} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('request metrics', () => {
  it('counts every request by route, method and status, however often /metrics is read', async () => {
    const route = '/api/metrics-test/:id';
    for (let i = 0; i < 3; i++) recordRequest(route, 'GET', 200, 0.002);
    recordRequest(route, 'POST', 200, 0.002);
    recordRequest(route, 'GET', 404, 0.002);
    let text = await metricsText();
    expect(requestsTotal(text, route, 'GET', 200)).toBe(3);
    expect(requestsTotal(text, route, 'POST', 200)).toBe(1);
    expect(requestsTotal(text, route, 'GET', 404)).toBe(1);
    expect(text).toMatch(new RegExp(`shiftgate_http_request_duration_seconds_count\\{route="${route.replace(/\//g, '\\/')}"\\} 5`));

    text = await metricsText();
    expect(requestsTotal(text, route, 'GET', 200)).toBe(3);
    for (let i = 0; i < 2; i++) recordRequest(route, 'GET', 200, 0.002);
    text = await metricsText();
    expect(requestsTotal(text, route, 'GET', 200)).toBe(5);
    expect(requestsTotal(text, route, 'POST', 200)).toBe(1);
  });

  it('puts each duration in the first bucket whose bound it does not pass, as a Prometheus histogram counts', async () => {
    const route = '/api/metrics-buckets/:id';
    // On a bound, just past it, past the last bound, and zero.
    for (const seconds of [0.001, 0.0010001, 0.0025, 10, 10.5, 0]) recordRequest(route, 'GET', 200, seconds);
    const text = await metricsText();
    const bucket = (le: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`shiftgate_http_request_duration_seconds_bucket{le="${le}",route="${route}"} `));
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    expect(bucket('0.001')).toBe(2);
    expect(bucket('0.0025')).toBe(4);
    expect(bucket('2.5')).toBe(4);
    expect(bucket('10')).toBe(5);
    expect(bucket('+Inf')).toBe(6);
    expect(text).toContain(`shiftgate_http_request_duration_seconds_count{route="${route}"} 6`);
    const sum = text.split('\n').find((l) => l.startsWith(`shiftgate_http_request_duration_seconds_sum{route="${route}"} `));
    expect(Number(sum?.slice(sum.lastIndexOf(' ') + 1))).toBeCloseTo(0.001 + 0.0010001 + 0.0025 + 10 + 10.5, 9);
    // The histogram's header lines, once.
    expect(text.split('\n').filter((l) => l === '# TYPE shiftgate_http_request_duration_seconds histogram')).toHaveLength(1);
  });

  it('counts webhook attempts by outcome, and the failed ones, however often /metrics is read', async () => {
    const value = (text: string, name: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    const before = await metricsText();
    const delivered = value(before, 'shiftgate_webhook_delivery_attempts_total{outcome="delivered"}');
    const failed = value(before, 'shiftgate_webhook_delivery_attempts_total{outcome="failed"}');
    const failures = value(before, 'shiftgate_webhook_delivery_failures_total');
    for (const ok of [true, true, false, true]) recordWebhookAttempt(ok);
    let text = await metricsText();
    expect(value(text, 'shiftgate_webhook_delivery_attempts_total{outcome="delivered"}')).toBe(delivered + 3);
    expect(value(text, 'shiftgate_webhook_delivery_attempts_total{outcome="failed"}')).toBe(failed + 1);
    expect(value(text, 'shiftgate_webhook_delivery_failures_total')).toBe(failures + 1);
    recordWebhookAttempt(false);
    text = await metricsText();
    expect(value(text, 'shiftgate_webhook_delivery_attempts_total{outcome="delivered"}')).toBe(delivered + 3);
    expect(value(text, 'shiftgate_webhook_delivery_attempts_total{outcome="failed"}')).toBe(failed + 2);
    expect(value(text, 'shiftgate_webhook_delivery_failures_total')).toBe(failures + 2);
  });
});
