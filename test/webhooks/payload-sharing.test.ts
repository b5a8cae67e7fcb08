import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Execute } from '../../src/graphql/execute.js';
import { emitEvent } from '../../src/webhooks/outbox.js';
import { PayloadRenderer } from '../../src/workers/payload-renderer.js';
import type { TestApp } from '../support/test-app.js';
import { importTimesheets, startWebhookApp } from './support.js';

describe('webhook bodies rendered once per event', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startWebhookApp();
    await t.app.webhooks.dispatcher.stop();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function newEvent(timesheetId: number) {
    await importTimesheets(t.app.db, [{ timesheetId, siteId: 100, employeeId: 1001 }]);
    const occurredAt = new Date().toISOString();
    const eventId = await t.app.db.transaction((trx) =>
      emitEvent(trx, { event: 'timesheet', eventType: 'updated', companyId: 1, recordId: timesheetId, occurredAt }),
    );
    return { event_id: eventId!, event: 'timesheet', event_type: 'updated', company_id: 1, record_id: timesheetId, occurred_at: occurredAt, payload: null };
  }

  function counting(): { execute: Execute; calls: () => number } {
    let calls = 0;
    return {
      execute: (request) => {
        calls++;
        return t.app.execute(request);
      },
      calls: () => calls,
    };
  }

  it('shares one rendering between deliveries of an event sent at the same time, and stores it', async () => {
    const event = await newEvent(9901);
    const { execute, calls } = counting();
    const renderer = new PayloadRenderer(t.app.db, execute);
    const bodies = await Promise.all([renderer.payloadOf(event), renderer.payloadOf(event), renderer.payloadOf(event)]);
    expect(calls()).toBe(1);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ type: 'timesheet.updated', data: { timesheetId: 9901 } });
    const stored = (await t.app.db('webhook_events').where({ id: event.event_id }).first('payload')) as { payload: string };
    expect(stored.payload).toBe(bodies[0]);
    // A delivery read before the body was stored still gets those bytes, without rendering again.
    expect(await renderer.payloadOf(event)).toBe(bodies[0]);
    expect(calls()).toBe(1);
  });

  it('renders again after a failed rendering, which every delivery sharing it saw fail', async () => {
    const event = await newEvent(9902);
    let fail = true;
    let calls = 0;
    const renderer = new PayloadRenderer(t.app.db, (request) => {
      calls++;
      return fail ? Promise.reject(new Error('execution failed')) : t.app.execute(request);
    });
    const shared = await Promise.allSettled([renderer.payloadOf(event), renderer.payloadOf(event)]);
    expect(shared.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    fail = false;
    expect(JSON.parse(await renderer.payloadOf(event))).toMatchObject({ data: { timesheetId: 9902 } });
    expect(calls).toBe(2);
  });
});
