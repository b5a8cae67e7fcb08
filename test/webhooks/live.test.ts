import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../support/event-stream.js';
import type { TestApp } from '../support/test-app.js';
import { importTimesheets, startWebhookApp, waitFor } from './support.js';

const openStream = (t: TestApp, token: string, query: string) => openEventStream(t.baseUrl, token, query);

describe('live events over server-sent events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startWebhookApp();
  });
  afterAll(() => t.close());

  it('streams the webhook body to the caller’s company only, filtered by pair', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const stream = await openStream(t, token, 'subscription { events(event: "timesheet", eventType: "created") { type timestamp data } }');
    await waitFor(() => t.app.services.webhooks?.bus.listening, 'the stream to be listening');
    try {
      await importTimesheets(t.app.db, [
        { timesheetId: 9501, siteId: 200, employeeId: 2001, status: 'Approved' },
        { timesheetId: 9502, siteId: 100, employeeId: 1001, status: 'Approved' },
      ]);
      const [first] = await waitFor(() => stream.messages.length > 0 && stream.messages, 'a live event');
      const timesheetToken = await t.token({ type: 'timesheet', companyId: 1 });
      const rest = await t.request('GET', '/api/external/timesheets/9502', { token: timesheetToken });
      expect(first.data.events).toEqual({ type: 'timesheet.created', timestamp: expect.any(String), data: rest.body.data });
      // Give any wrongly routed event the chance to arrive, then check none did.
      await waitFor(async () => (await t.app.db('webhook_events').whereNotNull('payload').count({ n: '*' }))[0]?.n === 4, 'all events relayed');
      expect(stream.messages).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it('refuses a pair outside the catalog', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const bad = await t.graphql(token, 'subscription { events(event: "roster", eventType: "x") { type } }');
    expect(JSON.stringify(bad.body)).toMatch(/BAD_USER_INPUT|not in the event catalog/);
  });
});
