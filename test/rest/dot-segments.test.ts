import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** Sends the request target byte for byte (fetch and URL would resolve the dot segments first). */
function sendTarget(t: TestApp, method: string, target: string, token: string, body?: string) {
  const { port } = new URL(t.baseUrl);
  const headers: Record<string, string | number> = { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` };
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('dot segments and encoded slashes in the path', () => {
  let t: TestApp;
  let timesheet: string;
  let developer: string;
  beforeAll(async () => {
    t = await startTestApp();
    timesheet = await t.token({ type: 'timesheet', companyId: 1 });
    developer = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it.each([
    '/api/external/staffs/1001/licenses/%2e%2e/%2e%2e/%2e%2e/timesheets/9001',
    '/api/external/staffs/1001/licenses/%2E%2e/%2e%2E/%2E%2E/timesheets/9001',
    '/api/external/staffs/1001/licenses/.%2e/%2e./..%2F..%2F/timesheets/9001',
    '/api/external/staffs/1001/licenses/../../../timesheets/9001',
    '/api/external/./timesheets/9001',
    '/api/external/timesheets/%2e/9001',
    '/api/external/timesheets/9001/.',
    '/api/external/timesheets/9001/%2E',
    '/api/external/timesheets%2f9001',
    '/api/external/timesheets%2F9001',
    '/api/external\\timesheets\\9001',
    '/api/external/timesheets%5c9001',
    '/api/external/timesheets/9001/..?pageSize=1',
  ])('refuses %s with a 400 envelope before routing', async (target) => {
    const res = await sendTarget(t, 'GET', target, timesheet);
    const env = expectFailure(res, 400);
    expect(env.status.errorMessage).toMatch(/path/i);
  });

  it('refuses a dot-segment write that would land on another route, and writes nothing', async () => {
    const before = await t.app.db('subscriptions').select().orderBy('id');
    const body = JSON.stringify({ subscriberId: 301, uri: 'https://hooks.example.com/dots' });
    const res = await sendTarget(t, 'POST', '/api/webhook/subscribers/301/%2e%2e/%2e%2e/subscriptions', developer, body);
    expectFailure(res, 400);
    expect(await t.app.db('subscriptions').select().orderBy('id')).toEqual(before);
  });

  it('refuses dot segments ahead of /graphql in the envelope', async () => {
    expectFailure(await sendTarget(t, 'POST', '/api/%2e%2e/graphql', developer, '{"query":"{ __typename }"}'), 400);
    expectFailure(await sendTarget(t, 'POST', '/graphql/.', developer, '{"query":"{ __typename }"}'), 400);
  });

  it('leaves dots that are not whole segments, and dots in the query, alone', async () => {
    expectEnvelope(await sendTarget(t, 'GET', '/api/external/timesheets/9001', timesheet), 200);
    expectFailure(await sendTarget(t, 'GET', '/api/external/timesheets/9001.5', timesheet), 400);
    expectFailure(await sendTarget(t, 'GET', '/api/external/.../timesheets/9001', timesheet), 404);
    const page = await sendTarget(t, 'GET', '/api/external/staffs/1001/licenses?licenseNumber=..%2F..', developer);
    expectEnvelope(page, 200);
  });
});
