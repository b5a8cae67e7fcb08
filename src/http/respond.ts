import type { ServerResponse } from 'node:http';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    // HTTP requires a challenge on every 401; the one credential this API takes is a Bearer token.
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    ...headers,
  });
  res.end(payload);
}
