const REQUEST_TIMEOUT_MS = 15_000;

/** Outcomes of one route as the client saw them. */
export interface RouteStats {
  requests: number;
  /** Responses by status class and exact code, e.g. { "200": 950, "500": 1 }. */
  statuses: Record<string, number>;
  /** No response at all: connection refused or reset, or no answer within the time-out. */
  transportErrors: number;
  /** A response with the right status whose body still said something went wrong (GraphQL errors). */
  badBodies: number;
  /** GraphQL errors with code INTERNAL_SERVER_ERROR: the server failed, though HTTP says 200. */
  internalErrors: number;
  maxMs: number;
  /** A few examples of what went wrong, for the report. */
  samples: string[];
}

export class RouteTally {
  readonly routes = new Map<string, RouteStats>();

  of(route: string): RouteStats {
    let stats = this.routes.get(route);
    if (!stats) {
      stats = { requests: 0, statuses: {}, transportErrors: 0, badBodies: 0, internalErrors: 0, maxMs: 0, samples: [] };
      this.routes.set(route, stats);
    }
    return stats;
  }

  note(route: string, problem: string): void {
    const stats = this.of(route);
    if (stats.samples.length < 3) stats.samples.push(problem.slice(0, 300));
  }
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

/** Calls the gateway over loopback, counting every outcome under a route label. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly subscriptionKey: string,
    readonly tally: RouteTally,
  ) {}

  async call(
    route: string,
    method: string,
    path: string,
    options: { token?: string; body?: unknown; expect: number },
  ): Promise<ApiResponse | null> {
    const stats = this.tally.of(route);
    stats.requests++;
    const started = performance.now();
    const headers: Record<string, string> = { 'external-gh-apim-sub-key': this.subscriptionKey, accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      stats.maxMs = Math.max(stats.maxMs, Math.round(performance.now() - started));
      stats.statuses[String(res.status)] = (stats.statuses[String(res.status)] ?? 0) + 1;
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      if (res.status !== options.expect) this.tally.note(route, `${method} ${path} → ${res.status}: ${text.slice(0, 200)}`);
      return { status: res.status, body };
    } catch (error) {
      stats.maxMs = Math.max(stats.maxMs, Math.round(performance.now() - started));
      stats.transportErrors++;
      this.tally.note(route, `${method} ${path} → ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return null;
    }
  }

  /** POST /graphql; a 200 carrying `errors` counts as a bad body. Returns `data` when there were no errors. */
  async graphql(route: string, token: string, query: string, variables: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    const res = await this.call(route, 'POST', '/graphql', { token, body: { query, variables }, expect: 200 });
    if (!res || res.status !== 200) return null;
    const body = res.body as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: unknown } }[] };
    if (body.errors?.length || !body.data) {
      if (body.errors?.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')) this.tally.of(route).internalErrors++;
      else this.tally.of(route).badBodies++;
      this.tally.note(route, `graphql errors: ${JSON.stringify(body.errors ?? body).slice(0, 200)}`);
      return null;
    }
    return body.data;
  }

  async token(apiKey: string): Promise<string> {
    const res = await this.call('POST /api/external/token/request', 'POST', '/api/external/token/request', { body: { apiKey }, expect: 200 });
    const token = (res?.body as { data?: { accessToken?: unknown } } | null)?.data?.accessToken;
    if (res?.status !== 200 || typeof token !== 'string') throw new Error(`token request failed: ${res?.status ?? 'no response'}`);
    return token;
  }
}
