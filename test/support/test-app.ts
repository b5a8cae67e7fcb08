import { afterEach } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '../../src/server/app.js';
import { loadConfig } from '../../src/config.js';
import type { KeyType } from '../../src/shared/principal.js';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createTestDatabase, type TestDatabase } from './backend.js';
import type { Logger } from '../../src/shared/observability/logger.js';
import type { PrintOpenApi } from '../../src/server/openapi-endpoint.js';
import { seedTenants } from './seed.js';
import { openApiProblems } from './openapi-responses.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Captures every response the server sends and checks it against the OpenAPI document
 * (test/support/openapi-responses.ts) as it ends, before its bytes leave: whichever client a test
 * uses, a response the document does not describe is recorded here.
 */
function checkResponsesAgainstOpenApi(server: Server, problems: string[]): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      const found = openApiProblems({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        status: res.statusCode,
        headers: res.getHeaders() as Record<string, string | string[] | number | undefined>,
        body: Buffer.concat(chunks),
      });
      for (const problem of found) problems.push(`${req.method} ${(req.url ?? '/').slice(0, 200)} → ${res.statusCode}: ${problem}`);
      return end(chunk, ...rest);
    }) as typeof res.end;
  });
}

/** Fails with every response since the last call that the OpenAPI document does not describe. */
export function assertResponsesDocumented(t: Pick<TestApp, 'openApiProblems'>): void {
  const problems = t.openApiProblems.splice(0);
  if (problems.length > 0) throw new Error(`responses not described by schema/openapi.json:\n${problems.join('\n')}`);
}

export const SUB_KEY = 'test-subscription-key';

export interface TestApp {
  app: App;
  baseUrl: string;
  /** The app's own database (SQLite file or PostgreSQL schema), dropped by close(). */
  database: TestDatabase;
  /** Plaintext API keys by name, created by `key()`. */
  key(options: { type: KeyType; companyId: number; customerIds?: number[]; siteIds?: number[] }): Promise<{ id: number; apiKey: string }>;
  /** A bearer token for a new key with these properties. */
  token(options: { type: KeyType; companyId: number; customerIds?: number[]; siteIds?: number[] }): Promise<string>;
  /** Calls the running server; JSON bodies are encoded, responses decoded when JSON. */
  request(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string>; subKey?: string | null },
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  /** POST /graphql with a token. */
  graphql(token: string | null, query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /**
   * Responses of this server that schema/openapi.json does not describe, not yet reported. `request`
   * and close() fail on them; a test that expects one takes it with `splice`.
   */
  openApiProblems: string[];
  /** Counts SQL statements issued while `fn` runs. */
  countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  now?: () => number;
  seed?: boolean;
  /** Run on this database instead of a fresh one (e.g. two instances on one database); not dropped by close(). */
  database?: TestDatabase;
  /** Replaces the app's logger (tests that read log lines). */
  logger?: Logger;
  /** Replaces what prints the OpenAPI document on the first request to /openapi.json. */
  printOpenApi?: PrintOpenApi;
}

/** Starts the gateway on an ephemeral loopback port over a fresh database of the suite's backend. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const ownsDatabase = options.database === undefined;
  const config = loadConfig({
    ...database.env,
    SUBSCRIPTION_KEYS: SUB_KEY,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    // Suites create many tokens from one address; rate-limit tests set small budgets themselves.
    RATE_LIMIT_PER_MINUTE: '1000000',
    TOKEN_RATE_LIMIT_PER_MINUTE: '1000000',
    TOKEN_PREFIX_FAILURES_PER_MINUTE: '1000000',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const app = await createApp(config, {
    ...(options.now ? { now: options.now } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.printOpenApi ? { printOpenApi: options.printOpenApi } : {}),
  });
  if (options.seed !== false) await seedTenants(app.db);
  const openApiProblems: string[] = [];
  checkResponsesAgainstOpenApi(app.server, openApiProblems);
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  const request: TestApp['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.subKey !== null) headers['external-gh-apim-sub-key'] ??= opts.subKey ?? SUB_KEY;
    if (opts.token) headers.authorization ??= `Bearer ${opts.token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    assertResponsesDocumented({ openApiProblems });
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  const key: TestApp['key'] = async (o) => {
    const created = await createApiKey(app.db, {
      keyType: o.type,
      companyId: o.companyId,
      customerIds: o.customerIds ?? [],
      siteIds: o.siteIds ?? [],
    });
    return { id: created.id, apiKey: created.apiKey };
  };

  return {
    app,
    baseUrl,
    database,
    key,
    request,
    async token(o) {
      const { apiKey } = await key(o);
      const res = await request('POST', '/api/external/token/request', { body: { apiKey } });
      if (res.status !== 200) throw new Error(`token request failed: ${res.text}`);
      return res.body.data.accessToken as string;
    },
    async graphql(token, query, variables) {
      const res = await request('POST', '/graphql', { token, body: { query, variables } });
      return { status: res.status, body: res.body };
    },
    async countStatements(fn) {
      const statements: string[] = [];
      const listener = (q: { sql: string }) => statements.push(q.sql);
      app.db.on('query', listener);
      try {
        const result = await fn();
        return { result, statements };
      } finally {
        app.db.off('query', listener);
      }
    },
    openApiProblems,
    async close() {
      await app.close();
      if (ownsDatabase) await database.close();
      assertResponsesDocumented({ openApiProblems });
    },
  };
}

/**
 * For a file (or a describe block) whose tests each start their own app: the function that
 * starts one, and an afterEach that closes every app the finished test started.
 */
export function appPerTest(): (options?: TestAppOptions) => Promise<TestApp> {
  const open: TestApp[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });
  return async (options) => {
    const t = await startTestApp(options);
    open.push(t);
    return t;
  };
}
