import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, expectFieldError, globalId, SUBSCRIPTION_SELECTION } from './helpers.js';

const CREATE = `mutation ($input: CreateEventSubscriptionInput!) {
  createEventSubscription(input: $input) { eventSubscription { gid: id subscriberId ${SUBSCRIPTION_SELECTION} } }
}`;
const UPDATE = `mutation ($input: UpdateEventSubscriptionInput!) {
  updateEventSubscription(input: $input) { eventSubscription { gid: id subscriberId ${SUBSCRIPTION_SELECTION} } }
}`;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GraphQL: createEventSubscription and updateEventSubscription', () => {
  let t: TestApp;
  let token: string;
  let clock = Date.parse('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    t = await startTestApp({ now: () => clock });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  async function rows(): Promise<unknown[]> {
    return t.app.db('subscriptions').select('*').orderBy('id');
  }

  async function create(input: Record<string, unknown>) {
    return t.graphql(token, CREATE, { input });
  }

  async function update(input: Record<string, unknown>) {
    return t.graphql(token, UPDATE, { input });
  }

  describe('create', () => {
    it('subscribes to the subscriber’s only pair when none is named; the subscription is active', async () => {
      const data = expectData(await create({ subscriberId: 301, uri: 'https://payroll.example.com/hooks' }));
      const sub = data.createEventSubscription.eventSubscription;
      expect(sub).toMatchObject({
        subscriberId: 301,
        webhookSubscriberEventFilterId: 3011,
        uri: 'https://payroll.example.com/hooks',
        isActive: true,
        event: 'timesheet',
        eventType: 'approved',
        createdDateTime: '2026-03-01T10:00:00.000Z',
        modifiedDateTime: '2026-03-01T10:00:00.000Z',
      });
      expect(Number.isInteger(sub.id)).toBe(true);
      expect(sub.gid).toBe(globalId('EventSubscription', sub.id));
      // It is stored, and readable back through the subscriber.
      const read = expectData(
        // A page: without one the list counts its cap of 1000 against the cost limit.
        await t.graphql(token, `{ subscriber(subscriberId: 301) { subscriptions(first: 100) { edges { node { gid: id subscriberId ${SUBSCRIPTION_SELECTION} } } } } }`),
      );
      expect(read.subscriber.subscriptions.edges.map((e: { node: unknown }) => e.node)).toContainEqual(sub);
    });

    it('chooses the pair by event and eventType', async () => {
      const data = expectData(await create({ subscriberId: 302, uri: 'https://roster.example.com/a', event: 'license', eventType: 'expiring' }));
      expect(data.createEventSubscription.eventSubscription).toMatchObject({
        webhookSubscriberEventFilterId: 3022,
        event: 'license',
        eventType: 'expiring',
      });
    });

    it('chooses the pair by webhookSubscriberEventFilterId', async () => {
      const data = expectData(await create({ subscriberId: 302, uri: 'https://roster.example.com/b', webhookSubscriberEventFilterId: 3021 }));
      expect(data.createEventSubscription.eventSubscription).toMatchObject({
        webhookSubscriberEventFilterId: 3021,
        event: 'timesheet',
        eventType: 'created',
      });
    });

    it('the same URI may be subscribed to two different pairs', async () => {
      const uri = 'https://roster.example.com/shared';
      expectData(await create({ subscriberId: 302, uri, webhookSubscriberEventFilterId: 3021 }));
      expectData(await create({ subscriberId: 302, uri, webhookSubscriberEventFilterId: 3022 }));
    });

    describe('refusals write nothing', () => {
      let before: unknown[];
      beforeEach(async () => {
        before = await rows();
      });

      it.each([
        ['a uri that is not http(s)', { subscriberId: 301, uri: 'ftp://files.example.com/' }],
        ['a relative uri', { subscriberId: 301, uri: '/hooks' }],
        ['an empty uri', { subscriberId: 301, uri: '' }],
        ['a uri with credentials', { subscriberId: 301, uri: 'https://user:pw@example.com/' }],
        ['a subscriber with several pairs and no choice', { subscriberId: 302, uri: 'https://x.example.com/' }],
        ['a subscriber with no pairs', { subscriberId: 303, uri: 'https://x.example.com/' }],
        ['event without eventType', { subscriberId: 302, uri: 'https://x.example.com/', event: 'license' }],
        ['eventType without event', { subscriberId: 302, uri: 'https://x.example.com/', eventType: 'expiring' }],
        ['a pair the subscriber does not have', { subscriberId: 302, uri: 'https://x.example.com/', event: 'timesheet', eventType: 'approved' }],
        ['another subscriber’s filter id', { subscriberId: 302, uri: 'https://x.example.com/', webhookSubscriberEventFilterId: 3011 }],
        ['another company’s filter id', { subscriberId: 301, uri: 'https://x.example.com/', webhookSubscriberEventFilterId: 4011 }],
        ['a non-positive subscriberId', { subscriberId: 0, uri: 'https://x.example.com/' }],
      ])('%s is BAD_USER_INPUT', async (_name, input) => {
        const data = expectFieldError(await create(input), 'BAD_USER_INPUT', ['createEventSubscription']);
        expect(data.createEventSubscription).toBeNull();
        expect(await rows()).toEqual(before);
      });

      it.each([
        ['a subscriber that does not exist', 999999],
        ['a subscriber of another company', 401],
      ])('%s is NOT_FOUND', async (_name, subscriberId) => {
        const data = expectFieldError(await create({ subscriberId, uri: 'https://x.example.com/' }), 'NOT_FOUND', [
          'createEventSubscription',
        ]);
        expect(data.createEventSubscription).toBeNull();
        expect(await rows()).toEqual(before);
      });

      it('the same uri twice for one pair makes two subscriptions', async () => {
        const uri = 'https://twice.example.com/';
        const first = expectData(await create({ subscriberId: 301, uri })).createEventSubscription.eventSubscription;
        const second = expectData(await create({ subscriberId: 301, uri })).createEventSubscription.eventSubscription;
        expect(second.id).not.toBe(first.id);
      });

      it('a missing required input field is refused before execution', async () => {
        const res = await create({ subscriberId: 301 });
        // Variable coercion fails, so nothing executes and there is no data at all.
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors?.length).toBeGreaterThan(0);
        expect(await rows()).toEqual(before);
      });
    });
  });

  describe('update', () => {
    let subscription: { id: number; createdDateTime: string; modifiedDateTime: string };

    beforeAll(async () => {
      const data = expectData(await create({ subscriberId: 302, uri: 'https://update.example.com/v1', webhookSubscriberEventFilterId: 3021 }));
      subscription = data.createEventSubscription.eventSubscription;
    });

    it('deactivates, reactivates and moves the uri; modifiedDateTime moves forward, createdDateTime stays', async () => {
      clock += 60_000;
      const off = expectData(await update({ subscriptionId: subscription.id, isActive: false })).updateEventSubscription.eventSubscription;
      expect(off).toMatchObject({ id: subscription.id, isActive: false, uri: 'https://update.example.com/v1' });
      expect(off.createdDateTime).toBe(subscription.createdDateTime);
      expect(off.modifiedDateTime).toBe(new Date(clock).toISOString());

      clock += 60_000;
      const on = expectData(await update({ subscriptionId: subscription.id, isActive: true, uri: 'https://update.example.com/v2' }))
        .updateEventSubscription.eventSubscription;
      expect(on).toMatchObject({ id: subscription.id, isActive: true, uri: 'https://update.example.com/v2' });
      expect(on.modifiedDateTime).toBe(new Date(clock).toISOString());

      // Same instant: the modification time still moves forward.
      const again = expectData(await update({ subscriptionId: subscription.id, uri: 'https://update.example.com/v3' }))
        .updateEventSubscription.eventSubscription;
      expect(again).toMatchObject({ isActive: true, uri: 'https://update.example.com/v3' });
      expect(again.modifiedDateTime).toMatch(ISO_UTC);
      expect(Date.parse(again.modifiedDateTime)).toBeGreaterThan(Date.parse(on.modifiedDateTime));
      expect(again.createdDateTime).toBe(subscription.createdDateTime);
    });

    describe('refusals write nothing', () => {
      let before: unknown[];
      beforeEach(async () => {
        before = await rows();
      });

      it.each([
        ['neither uri nor isActive', {}],
        ['uri null', { uri: null }],
        ['isActive null', { isActive: null }],
        ['a uri that is not http(s)', { uri: 'mailto:ops@example.com' }],
        ['an empty uri', { uri: '  ' }],
      ])('%s is BAD_USER_INPUT', async (_name, changes) => {
        const data = expectFieldError(await update({ subscriptionId: subscription.id, ...changes }), 'BAD_USER_INPUT', [
          'updateEventSubscription',
        ]);
        expect(data.updateEventSubscription).toBeNull();
        expect(await rows()).toEqual(before);
      });

      it('a non-positive subscriptionId is BAD_USER_INPUT', async () => {
        expectFieldError(await update({ subscriptionId: -4, isActive: false }), 'BAD_USER_INPUT', ['updateEventSubscription']);
        expect(await rows()).toEqual(before);
      });

      it('a subscription that does not exist is NOT_FOUND', async () => {
        const data = expectFieldError(await update({ subscriptionId: 999999, isActive: false }), 'NOT_FOUND', ['updateEventSubscription']);
        expect(data.updateEventSubscription).toBeNull();
        expect(await rows()).toEqual(before);
      });

      it('moving to a uri already subscribed to the same pair is allowed', async () => {
        expectData(await create({ subscriberId: 302, uri: 'https://taken.example.com/', webhookSubscriberEventFilterId: 3021 }));
        const moved = expectData(await update({ subscriptionId: subscription.id, uri: 'https://taken.example.com/' }));
        expect(moved.updateEventSubscription.eventSubscription.uri).toBe('https://taken.example.com/');
      });
    });
  });

  describe('delete', () => {
    const DELETE = `mutation ($input: DeleteEventSubscriptionInput!) {
  deleteEventSubscription(input: $input) { eventSubscription { gid: id subscriberId ${SUBSCRIPTION_SELECTION} } }
}`;

    it('returns the deleted subscription; then node, the subscriber’s list and a second delete no longer find it', async () => {
      const created = expectData(await create({ subscriberId: 301, uri: 'https://deleted.example.com/' })).createEventSubscription.eventSubscription;
      const deleted = expectData(await t.graphql(token, DELETE, { input: { subscriptionId: created.id } }));
      expect(deleted.deleteEventSubscription.eventSubscription).toEqual(created);
      expectFieldError(await t.graphql(token, `{ node(id: "${created.gid}") { id } }`), 'NOT_FOUND', ['node']);
      const list = expectData(await t.graphql(token, '{ subscriber(subscriberId: 301) { subscriptions { edges { node { subscriptionId } } } } }'));
      expect(list.subscriber.subscriptions.edges.map((e: { node: { subscriptionId: number } }) => e.node.subscriptionId)).not.toContain(created.id);
      const again = expectFieldError(await t.graphql(token, DELETE, { input: { subscriptionId: created.id } }), 'NOT_FOUND', ['deleteEventSubscription']);
      expect(again.deleteEventSubscription).toBeNull();
    });
  });
});
