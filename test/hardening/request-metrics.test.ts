import { describe, expect, it } from 'vitest';
import { metricsText, recordRequest } from '../../src/shared/observability/metrics.js';

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
});
