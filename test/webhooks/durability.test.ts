import { describe, expect, it } from 'vitest';
import { deliveriesOf, dispatcherOf, importTimesheets, appWithoutDispatcher, subscribe, waitFor } from './support.js';

describe('dispatcher crash and restart', () => {
  // The app's own dispatcher is stopped: this test plays both dispatchers itself.
  const app = appWithoutDispatcher();

  const dispatcher = (owner: string) => dispatcherOf(app.t, owner);

  it('loses nothing when a dispatcher dies holding leases: another one delivers after they expire', async () => {
    const token = await app.t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(app.t, token, { subscriberId: 302, uri: `${app.receiver.url}/in`, event: 'timesheet', eventType: 'created' });
    const timesheets = [9201, 9202, 9203, 9204, 9205].map((id) => ({ timesheetId: id, siteId: 100, employeeId: 1001 }));
    await importTimesheets(app.t.app.db, timesheets);

    // "Crash": the first dispatcher leases the whole batch and never sends or records anything.
    const doomed = dispatcher('doomed');
    const leased = await doomed.claim(10, 300);
    expect(leased).toHaveLength(5);
    // While the leases are live, nobody else may take the rows.
    const survivor = dispatcher('survivor');
    expect(await survivor.claim(10)).toHaveLength(0);

    survivor.start();
    try {
      await waitFor(async () => (await deliveriesOf(app.t.app.db, subscriptionId)).every((d) => d.state === 'delivered'), 'redelivery after lease expiry');
    } finally {
      await survivor.stop();
    }
    const bodies = app.receiver.received.map((r) => JSON.parse(r.body).data.timesheetId as number).sort();
    expect(bodies).toEqual([9201, 9202, 9203, 9204, 9205]);
    const ids = new Set(app.receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids).toEqual(new Set(leased.map((l) => l.webhook_id)));
  });

  it('reads the subscription’s active flag as every database boolean is read (PostgreSQL text form "t" too)', async () => {
    const token = await app.t.token({ type: 'developer', companyId: 1 });
    const subscriptionId = await subscribe(app.t, token, { subscriberId: 302, uri: `${app.receiver.url}/flag`, event: 'timesheet', eventType: 'created' });
    await importTimesheets(app.t.app.db, [{ timesheetId: 9301, siteId: 100, employeeId: 1001 }]);
    const one = dispatcher('flag-reader');
    const row = (await one.claim(10)).find((claimed) => Number(claimed.subscription_id) === subscriptionId);
    expect(row).toBeDefined();
    await one.deliver({ ...row!, is_active: 't' });
    const [delivery] = await deliveriesOf(app.t.app.db, subscriptionId);
    expect(delivery?.state).toBe('delivered');
    expect(app.receiver.received.filter((r) => r.path === '/flag')).toHaveLength(1);
  });
});
