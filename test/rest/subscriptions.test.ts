import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { SUBSCRIPTION_FIELDS } from '../support/contract-fields.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest, subscriptionRows, withoutWrites } from './http.js';

const CREATE = '/api/webhook/subscriptions';
const SUBSCRIPTION_KEYS = [...SUBSCRIPTION_FIELDS].sort();
const START = Date.parse('2026-03-01T09:00:00.000Z');

let uriCounter = 0;
/** A fresh, valid delivery URI (already in the normalised form the API stores). */
function freshUri(): string {
  uriCounter += 1;
  return `https://hooks.example.com/deliver/${uriCounter}`;
}

describe('webhook subscriptions', () => {
  let t: TestApp;
  let clock = START;
  let token: string;
  let timesheetToken: string;
  beforeAll(async () => {
    t = await startTestApp({ now: () => clock });
    token = await t.token({ type: 'developer', companyId: 1 });
    timesheetToken = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  const post = (body: unknown, as = token) => t.request('POST', CREATE, { token: as, body });
  const put = (id: number | string, body: unknown, as = token) =>
    t.request('PUT', `/api/webhook/subscriptions/${id}`, { token: as, body });
  const list = (subscriberId: number | string, as = token) =>
    t.request('GET', `/api/webhook/subscribers/${subscriberId}/subscriptions`, { token: as });

  async function create(body: Record<string, unknown>) {
    const env = expectEnvelope(await post(body), 201);
    return env.data as {
      id: number;
      webhookSubscriberEventFilterId: number;
      uri: string;
      isActive: boolean;
      event: string;
      eventType: string;
      createdDateTime: string;
      modifiedDateTime: string;
    };
  }

  describe('POST /api/webhook/subscriptions', () => {
    it('names a wrongly typed or missing field in REST terms, not GraphQL variables', async () => {
      for (const body of [{ subscriberId: 'x', uri: freshUri() }, { uri: freshUri() }]) {
        const res = await withoutWrites(t, () => post(body));
        expectFailure(res, 400);
        expect(res.body.status.errorMessage).toMatch(/^Field "subscriberId"/);
      }
    });

    it('subscribes to the subscriber’s only pair when none is named, active, with 201', async () => {
      const uri = freshUri();
      const before = await subscriptionRows(t);
      const created = await create({ subscriberId: 301, uri });
      expect(Object.keys(created).sort()).toEqual(SUBSCRIPTION_KEYS);
      expect(created).toEqual({
        id: expect.any(Number),
        webhookSubscriberEventFilterId: 3011,
        uri,
        isActive: true,
        event: 'timesheet',
        eventType: 'approved',
        createdDateTime: new Date(clock).toISOString(),
        modifiedDateTime: new Date(clock).toISOString(),
      });
      const after = await subscriptionRows(t);
      expect(after).toHaveLength(before.length + 1);
      const row = await t.app.db('subscriptions').where({ id: created.id }).first();
      expect(row).toMatchObject({ subscriber_id: 301, event_filter_id: 3011, uri });
    });

    it('chooses the pair named by event and eventType', async () => {
      const created = await create({ subscriberId: 302, uri: freshUri(), event: 'license', eventType: 'expiring' });
      expect(created).toMatchObject({ webhookSubscriberEventFilterId: 3022, event: 'license', eventType: 'expiring' });
    });

    it('chooses the pair named by webhookSubscriberEventFilterId', async () => {
      const created = await create({ subscriberId: 302, uri: freshUri(), webhookSubscriberEventFilterId: 3021 });
      expect(created).toMatchObject({ webhookSubscriberEventFilterId: 3021, event: 'timesheet', eventType: 'created' });
    });

    it('refuses a subscriber with several pairs when none is named, naming them', async () => {
      const res = await withoutWrites(t, () => post({ subscriberId: 302, uri: freshUri() }));
      const env = expectFailure(res, 400);
      const text = env.errors.map((e) => e.message).join(' ');
      expect(text).toContain('timesheet/created');
      expect(text).toContain('license/expiring');
      expect(text).toContain('3021');
      expect(text).toContain('3022');
    });

    it('refuses a subscriber without any pair', async () => {
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 303, uri: freshUri() })), 400);
    });

    it.each([
      ['event without eventType', { event: 'timesheet' }],
      ['eventType without event', { eventType: 'created' }],
      ['a pair the subscriber does not have', { event: 'timesheet', eventType: 'approved' }],
      ['a filter id of another subscriber', { webhookSubscriberEventFilterId: 3011 }],
      ['a filter id of another company', { webhookSubscriberEventFilterId: 4011 }],
      ['an id and a pair that disagree', { webhookSubscriberEventFilterId: 3021, event: 'license', eventType: 'expiring' }],
    ])('refuses %s with 400', async (_what, choice) => {
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 302, uri: freshUri(), ...choice })), 400);
    });

    it.each([
      ['ftp://hooks.example.com/x'],
      ['/relative/path'],
      ['hooks.example.com/x'],
      [''],
      ['   '],
      ['javascript:alert(1)'],
      ['http://'],
      ['mailto:ops@example.com'],
      ['https://user:secret@hooks.example.com/x'],
      [`https://hooks.example.com/${'x'.repeat(2100)}`],
    ])('refuses uri %j with 400', async (uri) => {
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 301, uri })), 400);
    });

    it.each([
      ['0', 0],
      ['negative', -1],
      ['fractional', 1.5],
      ['a string', '301'],
      ['null', null],
      ['a boolean', true],
      ['too large', 2 ** 40],
    ])('refuses a subscriberId that is %s with 400', async (_what, subscriberId) => {
      expectFailure(await withoutWrites(t, () => post({ subscriberId, uri: freshUri() })), 400);
    });

    it('refuses a body without subscriberId or uri with 400', async () => {
      expectFailure(await withoutWrites(t, () => post({ uri: freshUri() })), 400);
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 301 })), 400);
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 301, uri: 42 })), 400);
    });

    it.each(['companyId', 'id', 'isActive', 'createdDateTime', 'subscriptionId'])(
      'refuses the unknown field %s with 400',
      async (field) => {
        expectFailure(await withoutWrites(t, () => post({ subscriberId: 301, uri: freshUri(), [field]: 2 })), 400);
      },
    );

    it('answers an unknown subscriber and another company’s subscriber with 404', async () => {
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 999999, uri: freshUri() })), 404);
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 401, uri: freshUri() })), 404);
      expectFailure(
        await withoutWrites(t, () => post({ subscriberId: 401, uri: freshUri(), webhookSubscriberEventFilterId: 4011 })),
        404,
      );
    });

    it('allows the same uri twice on one pair: each subscription is its own, and the uri comes back as sent', async () => {
      const uri = 'https://Dup.Example.com:443';
      const first = await create({ subscriberId: 302, uri, webhookSubscriberEventFilterId: 3021 });
      const second = await create({ subscriberId: 302, uri, webhookSubscriberEventFilterId: 3021 });
      expect(second.id).not.toBe(first.id);
      expect([first.uri, second.uri]).toEqual([uri, uri]);
    });

    it.each([' https://pad.example.com/', 'https://pad.example.com/ '])('refuses a uri padded with white space (%j) with 400', async (uri) => {
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 301, uri })), 400);
    });

    it('refuses a timesheet key with 403', async () => {
      expectFailure(await withoutWrites(t, () => post({ subscriberId: 301, uri: freshUri() }, timesheetToken)), 403);
    });
  });

  describe('PUT /api/webhook/subscriptions/{id}', () => {
    let subscription: Awaited<ReturnType<typeof create>>;
    beforeEach(async () => {
      subscription = await create({ subscriberId: 301, uri: freshUri() });
    });

    it('pauses and resumes, advancing modifiedDateTime', async () => {
      clock += 5_000;
      const paused = expectEnvelope(await put(subscription.id, { isActive: false }), 200).data;
      expect(Object.keys(paused).sort()).toEqual(SUBSCRIPTION_KEYS);
      expect(paused).toEqual({
        ...subscription,
        isActive: false,
        modifiedDateTime: new Date(clock).toISOString(),
      });
      clock += 5_000;
      const resumed = expectEnvelope(await put(subscription.id, { isActive: true }), 200).data;
      expect(resumed.isActive).toBe(true);
      expect(Date.parse(resumed.modifiedDateTime)).toBeGreaterThan(Date.parse(paused.modifiedDateTime));
      const row = await t.app.db('subscriptions').where({ id: subscription.id }).first();
      expect(Boolean(row.is_active)).toBe(true);
    });

    it('changes the uri', async () => {
      const uri = freshUri();
      const updated = expectEnvelope(await put(subscription.id, { uri }), 200).data;
      expect(updated).toMatchObject({ id: subscription.id, uri, isActive: true, createdDateTime: subscription.createdDateTime });
      expect((await t.app.db('subscriptions').where({ id: subscription.id }).first()).uri).toBe(uri);
    });

    it('makes modifiedDateTime strictly later even when the clock has not moved', async () => {
      const first = expectEnvelope(await put(subscription.id, { isActive: false }), 200).data;
      expect(Date.parse(first.modifiedDateTime)).toBeGreaterThan(Date.parse(subscription.modifiedDateTime));
      const second = expectEnvelope(await put(subscription.id, { uri: freshUri(), isActive: true }), 200).data;
      expect(Date.parse(second.modifiedDateTime)).toBeGreaterThan(Date.parse(first.modifiedDateTime));
    });

    it('accepts the subscription’s own current uri', async () => {
      const same = expectEnvelope(await put(subscription.id, { uri: subscription.uri }), 200).data;
      expect(same.uri).toBe(subscription.uri);
    });

    it.each([
      ['an empty object', {}],
      ['a null uri', { uri: null }],
      ['a null isActive', { isActive: null }],
      ['a string isActive', { isActive: 'false' }],
      ['a numeric isActive', { isActive: 0 }],
      ['a numeric uri', { uri: 5 }],
      ['an ftp uri', { uri: 'ftp://hooks.example.com/x' }],
      ['a relative uri', { uri: '/hooks' }],
      ['an empty uri', { uri: '' }],
      ['a javascript: uri', { uri: 'javascript:alert(1)' }],
    ])('refuses %s with 400', async (_what, body) => {
      expectFailure(await withoutWrites(t, () => put(subscription.id, body)), 400);
    });

    it.each([
      ['subscriberId', 302],
      ['id', 1],
      ['companyId', 2],
      ['subscriptionId', 1],
      ['webhookSubscriberEventFilterId', 3021],
      ['event', 'license'],
      ['createdDateTime', '2020-01-01T00:00:00.000Z'],
      ['modifiedDateTime', '2020-01-01T00:00:00.000Z'],
    ])('refuses mass assignment of %s with 400 and changes nothing', async (field, value) => {
      const res = await withoutWrites(t, () => put(subscription.id, { isActive: false, [field]: value }));
      expectFailure(res, 400);
    });

    it('answers an unknown subscription with 404', async () => {
      expectFailure(await withoutWrites(t, () => put(999999, { isActive: false })), 404);
    });

    it('answers another company’s subscription with 404 and leaves it alone', async () => {
      const [foreignId] = await t.app
        .db('subscriptions')
        .insert({
          subscriber_id: 401,
          event_filter_id: 4011,
          uri: 'https://other.example.com/hook',
          is_active: true,
          created_date_time: '2026-01-01T00:00:00.000Z',
          modified_date_time: '2026-01-01T00:00:00.000Z',
        })
        .returning('id');
      const id = Number(typeof foreignId === 'object' ? (foreignId as { id: number }).id : foreignId);
      try {
        expectFailure(await withoutWrites(t, () => put(id, { isActive: false })), 404);
        expectFailure(await withoutWrites(t, () => put(id, { uri: freshUri() })), 404);
      } finally {
        await t.app.db('subscriptions').where({ id }).delete();
      }
    });

    it.each(['0', '-1', 'abc', '1.5', '1e2'])('refuses subscription id %j with 400', async (id) => {
      expectFailure(await withoutWrites(t, () => put(id, { isActive: false })), 400);
    });

    it('accepts a uri another subscription of the same pair already has', async () => {
      const other = await create({ subscriberId: 301, uri: freshUri() });
      const res = await put(subscription.id, { uri: other.uri });
      expectEnvelope(res, 200);
      expect(res.body.data.uri).toBe(other.uri);
    });

    it('refuses a timesheet key with 403', async () => {
      expectFailure(await withoutWrites(t, () => put(subscription.id, { isActive: false }, timesheetToken)), 403);
    });
  });

  describe('request bodies of POST and PUT', () => {
    let subscriptionId: number;
    beforeAll(async () => {
      subscriptionId = (await create({ subscriberId: 301, uri: freshUri() })).id;
    });

    const writes = (): [string, () => string][] => [
      ['POST', () => CREATE],
      ['PUT', () => `/api/webhook/subscriptions/${subscriptionId}`],
    ];
    const validBody = (method: string) =>
      JSON.stringify(method === 'POST' ? { subscriberId: 301, uri: freshUri() } : { isActive: false });

    it.each(writes())('%s without Content-Type is 415', async (method, path) => {
      const res = await withoutWrites(t, () => rawRequest(t, method, path(), { token, body: validBody(method) }));
      expectFailure(res, 415);
    });

    it.each(writes())('%s with Content-Type text/plain is 415', async (method, path) => {
      const res = await withoutWrites(t, () =>
        rawRequest(t, method, path(), { token, body: validBody(method), headers: { 'content-type': 'text/plain' } }),
      );
      expectFailure(res, 415);
    });

    it.each(writes())('%s with Content-Type application/x-www-form-urlencoded is 415', async (method, path) => {
      const res = await withoutWrites(t, () =>
        rawRequest(t, method, path(), {
          token,
          body: 'subscriberId=301&uri=https%3A%2F%2Fhooks.example.com%2Fform',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
      expectFailure(res, 415);
    });

    it.each(writes())('%s accepts application/json with a charset', async (method, path) => {
      const res = await rawRequest(t, method, path(), {
        token,
        body: validBody(method),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expectEnvelope(res, method === 'POST' ? 201 : 200);
    });

    const notObjects: [string, string][] = [
      ['an array', '[{"subscriberId":301,"uri":"https://hooks.example.com/arr"}]'],
      ['a string', '"https://hooks.example.com/str"'],
      ['null', 'null'],
      ['a number', '301'],
      ['malformed JSON', '{"subscriberId": 301, "uri": '],
      ['trailing garbage', '{"isActive": false} x'],
      ['single quotes', "{'isActive': false}"],
      ['an empty body', ''],
    ];
    for (const [method, path] of writes()) {
      it.each(notObjects)(`${method} with %s as JSON is 400`, async (_what, body) => {
        const res = await withoutWrites(t, () =>
          rawRequest(t, method, path(), { token, body, headers: { 'content-type': 'application/json' } }),
        );
        expectFailure(res, 400);
      });
    }
  });

  describe('GET /api/webhook/subscriptions/{id}', () => {
    const getOne = (id: number | string, as = token) => t.request('GET', `/api/webhook/subscriptions/${id}`, { token: as });

    it('returns the subscription as the create and update responses do', async () => {
      const created = await create({ subscriberId: 301, uri: freshUri() });
      const env = expectEnvelope(await getOne(created.id), 200);
      expect(env.data).toEqual(created);
      clock += 1_000;
      const paused = expectEnvelope(await put(created.id, { isActive: false }), 200).data;
      expect(expectEnvelope(await getOne(created.id), 200).data).toEqual(paused);
    });

    it('answers an unknown subscription and another company’s with the same 404', async () => {
      const [foreignId] = await t.app
        .db('subscriptions')
        .insert({
          subscriber_id: 401,
          event_filter_id: 4011,
          uri: 'https://other.example.com/hook',
          is_active: true,
          created_date_time: '2026-01-01T00:00:00.000Z',
          modified_date_time: '2026-01-01T00:00:00.000Z',
        })
        .returning('id');
      const id = Number(typeof foreignId === 'object' ? (foreignId as { id: number }).id : foreignId);
      try {
        const foreign = await getOne(id);
        const unknown = await getOne(999999);
        expectFailure(foreign, 404);
        expectFailure(unknown, 404);
        expect(foreign.body.status.errorMessage.replace(String(id), 'N')).toBe(unknown.body.status.errorMessage.replace('999999', 'N'));
      } finally {
        await t.app.db('subscriptions').where({ id }).delete();
      }
    });

    it.each(['0', '-1', 'abc', '1.5'])('refuses subscription id %j with 400', async (id) => {
      expectFailure(await getOne(id), 400);
    });

    it('refuses unknown query parameters and a body with 400', async () => {
      const created = await create({ subscriberId: 301, uri: freshUri() });
      expectFailure(await t.request('GET', `/api/webhook/subscriptions/${created.id}?x=1`, { token }), 400);
    });

    it('refuses a timesheet key with 403', async () => {
      const created = await create({ subscriberId: 301, uri: freshUri() });
      expectFailure(await getOne(created.id, timesheetToken), 403);
    });
  });

  describe('DELETE /api/webhook/subscriptions/{id}', () => {
    const del = (id: number | string, as = token) => t.request('DELETE', `/api/webhook/subscriptions/${id}`, { token: as });

    it('answers 200 with the deleted subscription; afterwards it is gone everywhere and a second DELETE is 404', async () => {
      const created = await create({ subscriberId: 301, uri: freshUri() });
      const env = expectEnvelope(await del(created.id), 200);
      expect(env.data).toEqual(created);
      expectFailure(await t.request('GET', `/api/webhook/subscriptions/${created.id}`, { token }), 404);
      const listed = expectEnvelope(await list(301), 200).data.map((s: { id: number }) => s.id);
      expect(listed).not.toContain(created.id);
      expectFailure(await withoutWrites(t, () => put(created.id, { isActive: true })), 404);
      expectFailure(await withoutWrites(t, () => del(created.id)), 404);
      // The row stays, marked, so its delivery log still refers to a subscription.
      const row = await t.app.db('subscriptions').where({ id: created.id }).first();
      expect(row.deleted_at).not.toBeNull();
    });

    it('answers an unknown subscription and another company’s with 404 and leaves it alone', async () => {
      const [foreignId] = await t.app
        .db('subscriptions')
        .insert({
          subscriber_id: 401,
          event_filter_id: 4011,
          uri: 'https://other.example.com/hook',
          is_active: true,
          created_date_time: '2026-01-01T00:00:00.000Z',
          modified_date_time: '2026-01-01T00:00:00.000Z',
        })
        .returning('id');
      const id = Number(typeof foreignId === 'object' ? (foreignId as { id: number }).id : foreignId);
      try {
        expectFailure(await withoutWrites(t, () => del(id)), 404);
        expectFailure(await withoutWrites(t, () => del(999999)), 404);
      } finally {
        await t.app.db('subscriptions').where({ id }).delete();
      }
    });

    it.each(['0', '-1', 'abc', '1.5'])('refuses subscription id %j with 400', async (id) => {
      expectFailure(await withoutWrites(t, () => del(id)), 400);
    });

    it('refuses a timesheet key with 403 and deletes nothing', async () => {
      const created = await create({ subscriberId: 301, uri: freshUri() });
      expectFailure(await withoutWrites(t, () => del(created.id, timesheetToken)), 403);
      expectEnvelope(await t.request('GET', `/api/webhook/subscriptions/${created.id}`, { token }), 200);
    });
  });

  describe('GET /api/webhook/subscribers/{subscriberId}/subscriptions', () => {
    it('returns every subscription of the subscriber, paused ones too', async () => {
      for (let i = 0; i < 25; i++) await create({ subscriberId: 302, uri: freshUri(), webhookSubscriberEventFilterId: 3022 });
      const some = await create({ subscriberId: 302, uri: freshUri(), webhookSubscriberEventFilterId: 3021 });
      expectEnvelope(await put(some.id, { isActive: false }), 200);

      const env = expectEnvelope(await list(302), 200);
      const rows = (await t.app.db('subscriptions').where({ subscriber_id: 302 }).select('id')) as { id: number }[];
      expect(rows.length).toBeGreaterThan(25);
      expect(env.count).toBe(rows.length);
      expect(env.data.map((s: { id: number }) => s.id).sort((a: number, b: number) => a - b)).toEqual(
        rows.map((r) => Number(r.id)).sort((a, b) => a - b),
      );
      expect(env).not.toHaveProperty('nextPageParameter');
      for (const s of env.data) expect(Object.keys(s).sort()).toEqual(SUBSCRIPTION_KEYS);
      expect(env.data.find((s: { id: number }) => s.id === some.id)).toMatchObject({ isActive: false, webhookSubscriberEventFilterId: 3021 });
    });

    it('does not mix in other subscribers’ subscriptions', async () => {
      const own = await create({ subscriberId: 301, uri: freshUri() });
      const env = expectEnvelope(await list(301), 200);
      expect(env.data.map((s: { id: number }) => s.id)).toContain(own.id);
      for (const s of env.data) expect(s.webhookSubscriberEventFilterId).toBe(3011);
    });

    it('returns an empty list for a subscriber without subscriptions', async () => {
      const env = expectEnvelope(await list(303), 200);
      expect(env.data).toEqual([]);
      expect(env.count).toBe(0);
    });

    it('answers an unknown subscriber and another company’s subscriber with 404', async () => {
      expectFailure(await list(999999), 404);
      expectFailure(await list(401), 404);
    });

    it.each(['0', '-5', 'abc', '3.5'])('refuses subscriber id %j with 400', async (id) => {
      expectFailure(await list(id), 400);
    });

    it('refuses a timesheet key with 403', async () => {
      expectFailure(await list(301, timesheetToken), 403);
    });
  });
});
