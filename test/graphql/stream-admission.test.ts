import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { TokenIssuer } from '../../src/auth/tokens.js';
import { graphqlAdmission } from '../../src/server/graphql-endpoint.js';
import type { Principal } from '../../src/shared/principal.js';
import type { LiveStreams, LiveTicket } from '../../src/webhooks/live-streams.js';

/** Which /graphql requests take a live-stream slot: any that carries a subscription operation, however it is spelled. */
describe('graphqlAdmission: live streams', () => {
  const principal: Principal = { keyId: 7, keyType: 'developer', companyId: 1, customerIds: [], siteIds: [] };
  const ticket = { slot: 'taken' } as unknown as LiveTicket;
  const streams = { admit: () => ticket } as unknown as LiveStreams;
  const tokens = { verify: async () => ({ keyId: 7, expiresAt: Date.now() + 60_000 }) } as unknown as TokenIssuer;
  const limits = { maxCost: 1000, maxTokens: 2000, batchLimit: 10, exposeLimits: false };
  const admission = graphqlAdmission({ limits, charge: async () => undefined, liveStreams: streams, tokens });
  const res = {} as ServerResponse;
  const admit = (url: string, body?: string) =>
    admission({ url, headers: { authorization: 'Bearer t' } } as unknown as IncomingMessage, res, principal, body === undefined ? undefined : Buffer.from(body));

  it.each([
    ['a subscription in the body', '/graphql', JSON.stringify({ query: 'subscription { events { event } }' })],
    ['a subscription spelled with JSON escapes', '/graphql', '{"query":"\\u0073ubscription { events { event } }"}'],
    ['a subscription in a batch', '/graphql', JSON.stringify([{ query: '{ __typename }' }, { query: 'subscription { events { event } }' }])],
    ['a subscription beside the query that runs', '/graphql', JSON.stringify({ query: 'subscription S { events { event } } query Q { __typename }', operationName: 'Q' })],
    ['a subscription in the URL', `/graphql?query=${encodeURIComponent('subscription { events { event } }')}`, undefined],
    ['a subscription percent-encoded in the URL', '/graphql?query=%73ubscription%20%7B%20events%20%7B%20event%20%7D%20%7D', undefined],
  ])('admits %s', async (_name, url, body) => {
    expect(await admit(url, body)).toBe(ticket);
  });

  it.each([
    ['a query', '/graphql', JSON.stringify({ query: '{ timesheet(timesheetId: 1) { timesheetId } }' })],
    ['a query whose variables mention the word subscription', '/graphql', JSON.stringify({ query: '{ __typename }', variables: { note: 'no subscription here' } })],
    ['a body that is not JSON', '/graphql', '{"query": "subscription'],
    ['a GET query', `/graphql?query=${encodeURIComponent('{ __typename }')}`, undefined],
  ])('lets %s through without a slot', async (_name, url, body) => {
    expect(await admit(url, body)).toBeUndefined();
  });

  it('answers at once, without a promise, for a request that asks for no stream', () => {
    expect(admit('/graphql', JSON.stringify({ query: '{ __typename }' }))).toBeUndefined();
    expect(admit('/graphql', JSON.stringify({ query: 'subscription { events { event } }' }))).toBeInstanceOf(Promise);
  });
});
