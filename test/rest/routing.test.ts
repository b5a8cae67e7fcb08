import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure, headerOf } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest, withoutWrites } from './http.js';

describe('REST routing: every answer is an envelope', () => {
  let t: TestApp;
  let developer: string;
  beforeAll(async () => {
    t = await startTestApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/external/nothing-here'],
    ['GET', '/api/external/staffs/1001'],
    ['GET', '/api/external/staffs/1001/licenses/extra'],
    ['POST', '/api/webhook/unknown'],
    ['GET', '/not-api-at-all'],
    ['DELETE', '/'],
  ])('%s %s is a 404 envelope', async (method, path) => {
    const res = await t.request(method, path, { token: developer });
    const env = expectFailure(res, 404);
    expect(env.errors[0]?.code).toBe(404);
  });

  it('answers an unknown path with 404 even without credentials', async () => {
    const res = await t.request('GET', '/api/external/unknown', { subKey: null });
    expectFailure(res, 404);
  });

  it.each([
    ['GET', '/api/webhook/subscriptions', 'POST'],
    ['DELETE', '/api/webhook/subscriptions', 'POST'],
    ['PATCH', '/api/webhook/subscriptions/1', 'PUT, GET, DELETE'],
    ['POST', '/api/webhook/subscriptions/1', 'PUT, GET, DELETE'],
    ['POST', '/api/external/staffs/1001/licenses', 'GET'],
    ['PUT', '/api/external/timesheets/9001', 'GET'],
    ['DELETE', '/api/webhook/subscribers/301/subscriptions', 'GET'],
    ['GET', '/api/external/token/request', 'POST'],
    ['PUT', '/api/external/token/request', 'POST'],
  ])('%s %s is a 405 envelope with Allow: %s', async (method, path, allow) => {
    const res = await withoutWrites(t, () => t.request(method, path, { token: developer }));
    expectFailure(res, 405);
    expect(headerOf(res, 'allow')).toBe(allow);
  });

  it('a 405 carrying a body writes nothing', async () => {
    const res = await withoutWrites(t, () =>
      t.request('PATCH', '/api/webhook/subscriptions', {
        token: developer,
        body: { subscriberId: 301, uri: 'https://hooks.example.com/405' },
      }),
    );
    expectFailure(res, 405);
  });

  it('a path id that is not valid percent-encoding is a 400, not a 500', async () => {
    const res = await rawRequest(t, 'GET', '/api/external/staffs/%E0%A4/licenses', { token: developer });
    expectFailure(res, 400);
  });

  it('a success envelope counts its records', async () => {
    const res = await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=3', { token: developer });
    const env = expectEnvelope(res, 200);
    expect(env.count).toBe(3);
    expect(env.data).toHaveLength(3);
  });
});
