import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/shared/observability/logger.js';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** Collects every JSON line the app logs. */
function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((l) => l.trim() !== ''));
      done();
    },
  });
  return { lines, stream };
}

describe('request ids, masking and logs', () => {
  let t: TestApp;
  const log = capture();
  beforeAll(async () => {
    t = await startTestApp({ logger: createLogger('info', log.stream) });
  });
  afterAll(() => t.close());

  it('echoes a plain x-request-id and replaces an unsafe or over-long one', async () => {
    const honoured = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(honoured.headers.get('x-request-id')).toBe('abc-123');
    const unsafe = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'a"b{c} $(x)' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const none = await t.request('GET', '/api/nowhere');
    expectFailure(none, 404);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('masks an internal error (no SQL, stack or path) and quotes the request id, on REST and GraphQL', async () => {
    const token = await t.token({ type: 'timesheet', companyId: 1 });
    await t.app.db.schema.renameTable('timesheets', 'timesheets_away');
    try {
      const rest = await t.request('GET', '/api/external/timesheets/9001', { token, headers: { 'x-request-id': 'req-500' } });
      const env = expectFailure(rest, 500);
      expect(env.errors[0]!.message).toBe('Internal server error (request id req-500)');
      expect(rest.text).not.toMatch(/select|sqlite|timesheets_away|\.ts:|at \w+ \(|node_modules|\/work\//i);

      const gql = await t.request('POST', '/graphql', {
        token,
        headers: { 'x-request-id': 'req-gql-500' },
        body: { query: '{ timesheet(timesheetId: 9001) { timesheetId } }' },
      });
      expect(gql.body.errors[0].message).toBe('Unexpected error.');
      expect(gql.body.errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId: 'req-gql-500' });
      expect(gql.text).not.toMatch(/select|sqlite|timesheets_away|stack|\.ts:|node_modules/i);
    } finally {
      await t.app.db.schema.renameTable('timesheets_away', 'timesheets');
    }
    // The original error is in the log for the operator.
    expect(log.lines.some((l) => l.includes('timesheets') && JSON.parse(l).level === 50)).toBe(true);
  });

  it('logs one JSON line per request with id, route pattern, status, duration and key id, and never a secret', async () => {
    const { id, apiKey } = await t.key({ type: 'developer', companyId: 1 });
    const tokenRes = await t.request('POST', '/api/external/token/request', { body: { apiKey } });
    const token = tokenRes.body.data.accessToken as string;
    await t.request('POST', '/api/external/token/request', { body: { apiKey: 'sgk_guess_' + 'z'.repeat(20) } });
    const ok = await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=2', { token, headers: { 'x-request-id': 'log-me' } });
    expectEnvelope(ok, 200);
    await t.graphql(token, '{ subscriber(subscriberId: 301) { name } }');
    await t.request('PUT', '/api/webhook/subscriptions/1', { token, body: { isActive: false, signingSecret: 'whsec_nope' } });
    // A debug call that hands the logger credentials anyway is redacted.
    t.app.logger.info({ headers: { authorization: `Bearer ${token}`, 'external-gh-apim-sub-key': SUB_KEY }, apiKey }, 'careless');
    await new Promise((r) => setTimeout(r, 50));

    const line = log.lines.map((l) => JSON.parse(l)).find((l) => l.requestId === 'log-me');
    expect(line).toMatchObject({ msg: 'request', route: '/api/external/staffs/:id/licenses', status: 200, keyId: id, method: 'GET' });
    expect(line.durationMs).toBeTypeOf('number');
    // The request line holds these fields and nothing else (no header, body or credential).
    expect(Object.keys(line).sort()).toEqual(['durationMs', 'keyId', 'level', 'method', 'msg', 'requestId', 'route', 'service', 'status', 'time']);
    const all = log.lines.join('\n');
    for (const secret of [apiKey, token, SUB_KEY, 'sgk_guess_', 'whsec_', 'YWFh' /* base64 of a seeded signing secret */]) {
      expect(all, `log contains ${secret.slice(0, 12)}…`).not.toContain(secret);
    }
    expect(all).toContain('[redacted]');
  });
});

describe('health, readiness and metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz without credentials', async () => {
    const health = await t.request('GET', '/healthz', { subKey: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/readyz', { subKey: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', database: 'ok', migrations: 'current' });
  });

  it('reports not ready when a migration is pending', async () => {
    const last = await t.app.db('knex_migrations').orderBy('id', 'desc').first();
    await t.app.db('knex_migrations').where({ id: last.id }).delete();
    try {
      const res = await t.request('GET', '/readyz', { subKey: null });
      expect(res.status).toBe(503);
      expect(res.body.migrations).toBe('pending');
    } finally {
      await t.app.db('knex_migrations').insert(last);
    }
  });

  it('serves Prometheus metrics with route patterns, never raw ids', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token });
    await t.request('GET', '/api/external/staffs/987654/licenses', { token });
    const res = await t.request('GET', '/metrics', { subKey: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/shiftgate_http_requests_total\{route="\/api\/external\/staffs\/:id\/licenses",method="GET",status="200"\} \d+/);
    expect(res.text).toContain('shiftgate_http_request_duration_seconds_bucket');
    expect(res.text).toContain('shiftgate_webhook_delivery_attempts_total');
    expect(res.text).toContain('shiftgate_webhook_delivery_failures_total');
    expect(res.text).toContain('shiftgate_webhook_dispatcher_lag_seconds');
    expect(res.text).not.toContain('987654');
  });
});
