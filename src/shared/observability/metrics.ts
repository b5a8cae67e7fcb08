import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per process, served at GET /metrics. Module-level on purpose: the webhook
 * dispatcher and the HTTP layer record into it without being handed a metrics object.
 * Labels are bounded: the route *pattern* (never the raw path), method and status.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'shiftgate_' });

/** A route, method and status seen so far, and its requests not yet handed to prom-client. */
interface RequestCount {
  route: string;
  method: string;
  status: string;
  pending: number;
}

// Requests are counted in plain numbers and handed to prom-client when it is read (/metrics):
// a request then costs three map lookups, not prom-client's label checks and label hash. The
// combinations are bounded: route patterns, methods node accepts, statuses the gateway sends.
const requestCounts = new Map<string, Map<string, Map<number, RequestCount>>>();

// Held by the registry alone: its value is only ever set from requestCounts, when it is read.
new Counter({
  name: 'shiftgate_http_requests_total',
  help: 'HTTP requests by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
  collect() {
    for (const byMethod of requestCounts.values()) {
      for (const byStatus of byMethod.values()) {
        for (const count of byStatus.values()) {
          if (count.pending === 0) continue;
          this.inc({ route: count.route, method: count.method, status: count.status }, count.pending);
          count.pending = 0;
        }
      }
    }
  },
});

const DURATION_NAME = 'shiftgate_http_request_duration_seconds';
const DURATION_HELP = 'HTTP request duration by route pattern';
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** One route's request durations: how many fell in each bucket (the last is +Inf), their sum and count. */
interface RouteDurations {
  route: string;
  inBucket: Float64Array;
  sum: number;
  count: number;
}

// Durations are counted per bucket in plain numbers and rendered when /metrics is read, in the
// form prom-client's Histogram gives: a request costs one bucket search and three additions
// instead of prom-client's label validation, label hash and per-call closure.
const routeDurations = new Map<string, RouteDurations>();

registry.registerMetric({
  name: DURATION_NAME,
  help: DURATION_HELP,
  type: 'histogram',
  aggregator: 'sum',
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const durations of routeDurations.values()) {
      const { route } = durations;
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += durations.inBucket[i]!;
        values.push({ labels: { le, route }, value: cumulative, metricName: `${DURATION_NAME}_bucket` });
      });
      values.push({ labels: { le: '+Inf', route }, value: durations.count, metricName: `${DURATION_NAME}_bucket` });
      values.push({ labels: { route }, value: durations.sum, metricName: `${DURATION_NAME}_sum` });
      values.push({ labels: { route }, value: durations.count, metricName: `${DURATION_NAME}_count` });
    }
    return { name: DURATION_NAME, help: DURATION_HELP, type: 'histogram', values, aggregator: 'sum' };
  },
  reset() {
    routeDurations.clear();
  },
} as unknown as Histogram);

function bucketOf(seconds: number): number {
  let i = 0;
  while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
  return i;
}

// Attempts are counted in plain numbers and handed to prom-client when it is read, as requests are.
const attemptsPending = { delivered: 0, failed: 0 };
let failuresPending = 0;

new Counter({
  name: 'shiftgate_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
  collect() {
    for (const outcome of ['delivered', 'failed'] as const) {
      // An outcome appears once it has happened, as it did when each attempt was counted at once.
      if (attemptsPending[outcome] === 0) continue;
      this.inc({ outcome }, attemptsPending[outcome]);
      attemptsPending[outcome] = 0;
    }
  },
});

new Counter({
  name: 'shiftgate_webhook_delivery_failures_total',
  help: 'Webhook delivery attempts that did not get a 2xx answer',
  registers: [registry],
  collect() {
    this.inc(failuresPending);
    failuresPending = 0;
  },
});

const dispatcherLag = new Gauge({
  name: 'shiftgate_webhook_dispatcher_lag_seconds',
  help: 'How late the oldest delivery claimed in the last dispatcher round was, against its due time',
  registers: [registry],
});

export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  let byMethod = requestCounts.get(route);
  if (!byMethod) requestCounts.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let count = byStatus.get(status);
  if (!count) byStatus.set(status, (count = { route, method, status: String(status), pending: 0 }));
  count.pending += 1;
  let durations = routeDurations.get(route);
  if (!durations) routeDurations.set(route, (durations = { route, inBucket: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 }));
  durations.inBucket[bucketOf(seconds)]! += 1;
  durations.sum += seconds;
  durations.count += 1;
}

export function recordWebhookAttempt(delivered: boolean): void {
  if (delivered) attemptsPending.delivered++;
  else {
    attemptsPending.failed++;
    failuresPending++;
  }
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

export const METRICS_CONTENT_TYPE = registry.contentType;
