import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest } from './http.js';

const CREATE = '/api/webhook/subscriptions';
const DAY_MS = 24 * 3600 * 1000;

let counter = 0;
/** A key no other test uses. */
function freshKey(): string {
  counter += 1;
  return `create-${counter}-${Math.random().toString(36).slice(2)}`;
}
function freshUri(): string {
  counter += 1;
  return `https://hooks.example.com/idempotent/${counter}`;
}

describe('POST /api/webhook/subscriptions with an Idempotency-Key', () => {
  let t: TestApp;
  let clock = Date.parse('2026-04-01T08:00:00.000Z');
  let token: string;

  beforeAll(async () => {
    // Tokens outlive the days this file moves the clock on.
    t = await startTestApp({ now: () => clock, env: { TOKEN_TTL_SECONDS: String(7 * 24 * 3600) } });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  const post = (key: string | undefined, body: unknown, as = token) =>
    t.request('POST', CREATE, { token: as, body, headers: key === undefined ? {} : { 'idempotency-key': key } });

  /** Both tables a create writes: equal snapshots mean nothing was written. */
  async function stored(): Promise<{ subscriptions: unknown[]; keys: unknown[] }> {
    return {
      subscriptions: await t.app.db('subscriptions').orderBy('id'),
      keys: await t.app.db('idempotency_keys').orderBy('id'),
    };
  }

  async function expectNothingWritten<R>(send: () => Promise<R>): Promise<R> {
    const before = await stored();
    const res = await send();
    expect(await stored(), 'nothing written').toEqual(before);
    return res;
  }

  async function subscriptionCount(): Promise<number> {
    const [row] = await t.app.db('subscriptions').count({ n: '*' });
    return Number(row?.n);
  }

  it('answers a repeat with the same status and body, and creates one subscription', async () => {
    const key = freshKey();
    const body = { subscriberId: 301, uri: freshUri() };
    const before = await subscriptionCount();
    const first = expectEnvelope(await post(key, body), 201);
    const again = await post(key, body);
    expect(expectEnvelope(again, 201)).toEqual(first);
    expect(await subscriptionCount()).toBe(before + 1);
  });

  it('answers a repeat with the subscription as it was created, though it changed since', async () => {
    const key = freshKey();
    const body = { subscriberId: 301, uri: freshUri() };
    const first = expectEnvelope(await post(key, body), 201);
    clock += 60_000;
    const changed = await t.request('PUT', `${CREATE}/${first.data.id}`, { token, body: { isActive: false, uri: freshUri() } });
    expectEnvelope(changed, 200);
    const again = expectEnvelope(await post(key, body), 201);
    expect(again).toEqual(first);
    expect(again.data.isActive).toBe(true);
  });

  it('refuses the same key with another body: 409, nothing written', async () => {
    const key = freshKey();
    const body = { subscriberId: 301, uri: freshUri() };
    expectEnvelope(await post(key, body), 201);
    for (const other of [
      { subscriberId: 301, uri: freshUri() },
      { subscriberId: 302, uri: body.uri, webhookSubscriberEventFilterId: 3021 },
      { ...body, event: 'timesheet', eventType: 'approved' },
    ]) {
      const res = await expectNothingWritten(() => post(key, other));
      const env = expectFailure(res, 409);
      expect(env.status.errorMessage).toMatch(/Idempotency-Key|idempotency key/i);
    }
  });

  it('keeps each API key’s keys apart: another API key with the same key creates its own', async () => {
    const key = freshKey();
    const body = { subscriberId: 301, uri: freshUri() };
    const other = await t.token({ type: 'developer', companyId: 1 });
    const mine = expectEnvelope(await post(key, body), 201);
    const theirs = expectEnvelope(await post(key, body, other), 201);
    expect(theirs.data.id).not.toBe(mine.data.id);
    expect(expectEnvelope(await post(key, body, other), 201)).toEqual(theirs);
    // Even another body is theirs to send under that key.
    const rival = await t.token({ type: 'developer', companyId: 1 });
    expectEnvelope(await post(key, { subscriberId: 302, uri: freshUri(), webhookSubscriberEventFilterId: 3021 }, rival), 201);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a tab', 'a\tb'],
    ['with a character beyond ASCII', 'caf\u00e9'],
  ])('refuses a key that is %s: 400, nothing written', async (_what, key) => {
    const res = await expectNothingWritten(() =>
      rawRequest(t, 'POST', CREATE, {
        token,
        body: JSON.stringify({ subscriberId: 301, uri: freshUri() }),
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      }),
    );
    const env = expectFailure(res, 400);
    expect(env.status.errorMessage).toMatch(/Idempotency-Key|idempotency key/i);
  });

  it('accepts a key of 255 printable characters, spaces and punctuation included', async () => {
    const key = ` !"#$%&'()*+~`.padStart(255, 'k');
    expect(key).toHaveLength(255);
    const body = { subscriberId: 301, uri: freshUri() };
    const first = expectEnvelope(await post(key, body), 201);
    expect(expectEnvelope(await post(key, body), 201)).toEqual(first);
  });

  it('takes the key only from the header, not from the body', async () => {
    const res = await expectNothingWritten(() => post(undefined, { subscriberId: 301, uri: freshUri(), idempotencyKey: freshKey() }));
    expectFailure(res, 400);
  });

  it('remembers only what was created: a refused request writes nothing and its key stays free', async () => {
    const key = freshKey();
    const uri = freshUri();
    expectFailure(await expectNothingWritten(() => post(key, { subscriberId: 999, uri })), 404);
    expectFailure(await expectNothingWritten(() => post(key, { subscriberId: 302, uri })), 400);
    expectFailure(await expectNothingWritten(() => post(key, { subscriberId: 301, uri: 'ftp://nope.example.com/' })), 400);
    const created = expectEnvelope(await post(key, { subscriberId: 301, uri }), 201);
    expect(created.data.uri).toBe(uri);
  });

  it('creates one subscription for concurrent requests with the same key and body', async () => {
    const key = freshKey();
    const body = { subscriberId: 301, uri: freshUri() };
    const before = await subscriptionCount();
    const responses = await Promise.all(Array.from({ length: 8 }, () => post(key, body)));
    const envelopes = responses.map((res) => expectEnvelope(res, 201));
    for (const env of envelopes) expect(env).toEqual(envelopes[0]);
    expect(await subscriptionCount()).toBe(before + 1);
  });

  it('creates one subscription for concurrent requests with the same key and different bodies; the others get 409', async () => {
    const key = freshKey();
    const bodies = [
      { subscriberId: 301, uri: freshUri() },
      { subscriberId: 301, uri: freshUri() },
    ];
    const before = await subscriptionCount();
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => post(key, bodies[i % 2])));
    const created = responses.filter((res) => res.status === 201).map((res) => expectEnvelope(res, 201));
    for (const res of responses.filter((r) => r.status !== 201)) expectFailure(res, 409);
    expect(created.length).toBeGreaterThan(0);
    for (const env of created) expect(env).toEqual(created[0]);
    expect(await subscriptionCount()).toBe(before + 1);
  });

  it('forgets a key after 24 hours: it may then be used again, for any body', async () => {
    const key = freshKey();
    const body = { subscriberId: 301, uri: freshUri() };
    const first = expectEnvelope(await post(key, body), 201);
    clock += DAY_MS - 1;
    expect(expectEnvelope(await post(key, body), 201)).toEqual(first);
    clock += 2;
    const later = expectEnvelope(await post(key, body), 201);
    expect(later.data.id).not.toBe(first.data.id);
    clock += DAY_MS + 1;
    const other = expectEnvelope(await post(key, { subscriberId: 301, uri: freshUri() }), 201);
    expect(other.data.id).not.toBe(later.data.id);
  });

  it('prunes keys older than 24 hours as new ones are stored', async () => {
    const old = freshKey();
    expectEnvelope(await post(old, { subscriberId: 301, uri: freshUri() }), 201);
    expect(await t.app.db('idempotency_keys').where({ idempotency_key: old }).first()).toBeDefined();
    clock += DAY_MS + 1;
    expectEnvelope(await post(freshKey(), { subscriberId: 301, uri: freshUri() }), 201);
    expect(await t.app.db('idempotency_keys').where({ idempotency_key: old }).first()).toBeUndefined();
  });

  it('creates a subscription for every request without a key, as before', async () => {
    const body = { subscriberId: 301, uri: freshUri() };
    const before = await subscriptionCount();
    expectEnvelope(await post(undefined, body), 201);
    expectEnvelope(await post(undefined, body), 201);
    expect(await subscriptionCount()).toBe(before + 2);
  });
});
