import autocannon from 'autocannon';

/** One request of a scenario and the exact body its response must have. */
export interface PlannedRequest {
  path: string;
  body?: string;
  expected: string;
}

export interface LoadTarget {
  baseUrl: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Called for every request autocannon sends (so ids can be random). */
  next: () => PlannedRequest;
}

export interface LoadResult {
  seconds: number;
  /** Responses that arrived with status 200 and exactly the expected body. */
  ok: number;
  /** Everything else: wrong status or body, transport errors, timeouts. */
  failures: number;
  failureSample: string | undefined;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** Seconds a response may take before it counts as a timeout (autocannon's default is 10). */
  timeoutSeconds?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/**
 * Drives one target with autocannon for a fixed time. Every response is checked against
 * the planned body; latencies are the per-response times autocannon measures (sub-ms
 * precision, rather than its 1 ms histogram).
 */
export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  let ok = 0;
  let failures = 0;
  let failureSample: string | undefined;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const fail = (what: string) => {
    failures++;
    failureSample ??= what;
  };
  const autocannonOptions: autocannon.Options = {
    url: target.baseUrl,
    connections: options.connections,
    pipelining: 1,
    duration: options.seconds,
    timeout: options.timeoutSeconds ?? 10,
    method: target.method,
    headers: target.headers,
    requests: [
      {
        setupRequest: (request, context) => {
          const planned = target.next();
          (context as { expected?: string }).expected = planned.expected;
          request.path = planned.path;
          if (planned.body !== undefined) request.body = planned.body;
          return request;
        },
        onResponse: (status, body, context) => {
          const expected = (context as { expected?: string }).expected;
          if (status === 200 && body === expected) ok++;
          else fail(`status ${status}: ${body.slice(0, 300)}${status === 200 ? ' (body differs from the expected one)' : ''}`);
        },
      },
    ],
  };
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(autocannonOptions, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  // Transport errors and timeouts never reach onResponse; they fail the run too.
  failures += result.errors + result.timeouts;
  if (result.errors > 0) failureSample ??= `${result.errors} transport errors`;
  if (result.timeouts > 0) failureSample ??= `${result.timeouts} timeouts`;
  const sorted = latencies.subarray(0, count).sort();
  return {
    seconds,
    ok,
    failures,
    failureSample,
    requestsPerSecond: ok / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}
