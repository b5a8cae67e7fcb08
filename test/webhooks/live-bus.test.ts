import { describe, expect, it } from 'vitest';
import { InProcessEventBus, MAX_QUEUED_EVENTS, type LiveEvent } from '../../src/webhooks/live-bus.js';

const event = (companyId: number, n = 0): LiveEvent => ({ companyId, event: 'timesheet', eventType: 'created', payload: String(n) });

describe('the in-process live bus', () => {
  it('registers a subscriber only while it iterates, and delivers only what it matches, in order', async () => {
    const bus = new InProcessEventBus();
    const subscription = bus.subscribe((e) => e.companyId === 1);
    expect(bus.listening).toBe(false);
    const events = subscription[Symbol.asyncIterator]();
    expect(bus.listening).toBe(true);
    const waiting = events.next();
    bus.publish(event(2, 1));
    bus.publish(event(1, 2));
    bus.publish(event(1, 3));
    expect((await waiting).value?.payload).toBe('2');
    expect((await events.next()).value?.payload).toBe('3');
    const pending = events.next();
    await events.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(bus.listening).toBe(false);
  });

  it('cuts off a subscriber that falls more than MAX_QUEUED_EVENTS behind, without touching the others', async () => {
    const bus = new InProcessEventBus();
    const slow = bus.subscribe();
    const slowEvents = slow[Symbol.asyncIterator]();
    const fast = bus.subscribe()[Symbol.asyncIterator]();
    let fastGot = 0;
    for (let i = 0; i <= MAX_QUEUED_EVENTS; i++) {
      bus.publish(event(1, i));
      const next = await fast.next();
      if (!next.done) fastGot++;
    }
    expect(fastGot).toBe(MAX_QUEUED_EVENTS + 1);
    expect(slow.lagged).toBe(true);
    expect(await slowEvents.next()).toEqual({ done: true, value: undefined });
    expect(bus.listening).toBe(true);
    await fast.return?.();
    expect(bus.listening).toBe(false);
  });
});
