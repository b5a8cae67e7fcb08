import { describe, expect, it } from 'vitest';
import { appWithoutDispatcher, backlogAt, deliveriesOf, dispatcherOf, startScriptedReceiver, waitFor } from './support.js';

const UNSOLICITED_DELAY_MS = 3;

describe('an answer nobody asked for', () => {
  // A retry an hour away, so each delivery is decided by its first attempt.
  const app = appWithoutDispatcher({ WEBHOOK_RETRY_SCHEDULE: '3600', WEBHOOK_CONCURRENCY_PER_HOST: '2', WEBHOOK_POLL_INTERVAL_MS: '10' });

  it('is never taken for a later delivery’s answer: a receiver that answers 500 and then 200 gets nothing recorded delivered', async () => {
    // Every request is refused; a moment later the receiver sends a 200 it was never asked for.
    const r = await startScriptedReceiver((socket) => {
      socket.write('HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\nnope');
      setTimeout(() => !socket.destroyed && socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), UNSOLICITED_DELAY_MS);
    });
    const subscriptionId = await backlogAt(app.t, `${r.url}/stale`, 9601, 20);
    const dispatcher = dispatcherOf(app.t, 'stale-answers');
    dispatcher.start();
    try {
      await waitFor(async () => (await deliveriesOf(app.t.app.db, subscriptionId)).every((d) => Number(d.attempt_count) >= 1), 'every delivery’s first attempt');
    } finally {
      await dispatcher.stop();
      await r.close();
    }
    const deliveries = await deliveriesOf(app.t.app.db, subscriptionId);
    expect(deliveries).toHaveLength(20);
    expect(r.requests.length).toBeGreaterThanOrEqual(20);
    expect(deliveries.filter((d) => d.state === 'delivered').map((d) => d.id)).toEqual([]);
    const attempts = (await app.t.app.db('webhook_attempts').whereIn(
      'delivery_id',
      deliveries.map((d) => d.id),
    )) as { http_status: number | null }[];
    expect(attempts.filter((a) => a.http_status === 200)).toEqual([]);
  });
});
