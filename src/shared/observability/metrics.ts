import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per process, served at GET /metrics. Module-level on purpose: the webhook
 * dispatcher and the HTTP layer record into it without being handed a metrics object.
 * Labels are bounded: the route *pattern* (never the raw path), method and status.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'shiftgate_' });

const requests = new Counter({
  name: 'shiftgate_http_requests_total',
  help: 'HTTP requests by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

const durations = new Histogram({
  name: 'shiftgate_http_request_duration_seconds',
  help: 'HTTP request duration by route pattern',
  labelNames: ['route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [registry],
});

const attempts = new Counter({
  name: 'shiftgate_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const failures = new Counter({
  name: 'shiftgate_webhook_delivery_failures_total',
  help: 'Webhook delivery attempts that did not get a 2xx answer',
  registers: [registry],
});

const dispatcherLag = new Gauge({
  name: 'shiftgate_webhook_dispatcher_lag_seconds',
  help: 'How late the oldest delivery claimed in the last dispatcher round was, against its due time',
  registers: [registry],
});

export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  requests.inc({ route, method, status });
  durations.observe({ route }, seconds);
}

export function recordWebhookAttempt(delivered: boolean): void {
  attempts.inc({ outcome: delivered ? 'delivered' : 'failed' });
  if (!delivered) failures.inc();
}

/** `dueAt` values of the rows a dispatcher round claimed (ISO strings); empty rounds read 0. */
export function recordDispatcherLag(dueAt: readonly (string | null | undefined)[], nowMs: number): void {
  let oldest = nowMs;
  for (const value of dueAt) {
    const ms = value ? Date.parse(value) : NaN;
    if (ms < oldest) oldest = ms;
  }
  dispatcherLag.set(Math.max(0, (nowMs - oldest) / 1000));
}

export function metricsText(): Promise<string> {
  return registry.metrics();
}
