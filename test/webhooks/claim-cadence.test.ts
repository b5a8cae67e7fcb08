import { describe, expect, it } from 'vitest';
import { appWithoutDispatcher, backlogAt, deliverAll } from './support.js';

// One send at a time to the host, room for more in the pool, and no poll during the test: every
// claim below is one a finished send asked for.
const ONE_AT_A_TIME = {
  WEBHOOK_POLL_INTERVAL_MS: '60000',
  WEBHOOK_CONCURRENCY: '4',
  WEBHOOK_CONCURRENCY_PER_HOST: '1',
  WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '1',
};
const LEASE = /update webhook_deliveries set lease_owner = \S+, lease_expires_at = \S+ where id in/i;
/** A lease ahead for a destination: restricted to the subscriptions seen sending there. */
const TOP_UP = /\+subscription_id in \(/i;

describe('claim cadence with a host at its cap', () => {
  // The test's own dispatcher works on the connection whose statements it counts.
  const suite = appWithoutDispatcher(ONE_AT_A_TIME);

  it('does not scan the backlog again after a claim found nothing outside the capped host', async () => {
    const { t, receiver } = suite;
    const count = 20;
    const subscriptionId = await backlogAt(t, `${receiver.url}/one`, 9700, count);
    const { statements } = await t.countStatements(() => deliverAll(t, subscriptionId));
    expect(receiver.received).toHaveLength(count);
    // Each freed slot is refilled by at most one lease (a claim, or rows leased ahead for the
    // host, which refill several). Looking again with the host excluded finds nothing new, and
    // doing it anyway after every send would be one scan more each.
    const leases = statements.filter((sql) => LEASE.test(sql)).length;
    expect(leases).toBeGreaterThan(0);
    expect(leases).toBeLessThanOrEqual(count + 3);
  });
});

describe('rows leased ahead for a destination that answers fast', () => {
  const suite = appWithoutDispatcher(ONE_AT_A_TIME);

  it('leases its backlog in a few large top-ups, not one per send or two', async () => {
    const { t, receiver } = suite;
    const count = 48;
    // The only subscription to its receiver, so every row leased ahead for that host is one of the backlog's.
    const subscriptionId = await backlogAt(t, `${receiver.url}/backlog`, 9750, count);
    const { statements } = await t.countStatements(() => deliverAll(t, subscriptionId));
    expect(receiver.received).toHaveLength(count);
    // A loopback receiver answers in milliseconds, so a top-up, due once half of the rows ahead
    // are gone, takes up to eight rounds of the host's one send in flight: at least four rows
    // each. Two rows per top-up would be one for every second send.
    const topUps = statements.filter((sql) => LEASE.test(sql) && TOP_UP.test(sql)).length;
    expect(topUps).toBeGreaterThan(0);
    expect(topUps).toBeLessThanOrEqual(count / 3);
  });
});
