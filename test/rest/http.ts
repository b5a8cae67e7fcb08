import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import { assertResponsesDocumented, SUB_KEY, type TestApp } from '../support/test-app.js';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  text: string;
}

/**
 * A request through node:http, for what fetch cannot send: a body on a GET, or a body
 * without any Content-Type header. Adds the subscription key unless `subKey` is null.
 */
export function rawRequest(
  t: TestApp,
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string>; subKey?: string | null } = {},
): Promise<RawResponse> {
  const url = new URL(path, t.baseUrl);
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.subKey !== null) headers['external-gh-apim-sub-key'] = options.subKey ?? SUB_KEY;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          try {
            assertResponsesDocumented(t);
          } catch (error) {
            reject(error);
            return;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Every row of the subscriptions table, in id order. */
export async function subscriptionRows(t: TestApp): Promise<unknown[]> {
  return t.app.db('subscriptions').select().orderBy('id');
}

/**
 * Runs a request that must be refused and asserts the subscriptions table is unchanged.
 * Returns the response for the caller's status and envelope assertions.
 */
export async function withoutWrites<R>(t: TestApp, send: () => Promise<R>): Promise<R> {
  const before = await subscriptionRows(t);
  const res = await send();
  expect(await subscriptionRows(t), 'subscriptions table unchanged').toEqual(before);
  return res;
}
