import { describe, expect, it } from 'vitest';
import { DeliverySlots, destinationOf } from '../../src/webhooks/delivery-slots.js';

const row = (id: number, subscriptionId: number, uri: string) => ({ id, subscriptionId, uri });

describe('delivery slots: caps per subscription and per destination', () => {
  it('names a destination by host and port', () => {
    expect(destinationOf('https://Hooks.Example.com/a?b')).toBe('hooks.example.com');
    expect(destinationOf('http://127.0.0.1:9000/x')).toBe('127.0.0.1:9000');
    // Many URIs, more than are kept: each still reads as itself, the first ones again too.
    for (let i = 0; i < 2500; i++) expect(destinationOf(`https://h${i % 1200}.example.com:${8000 + (i % 7)}/x`)).toBe(`h${i % 1200}.example.com:${8000 + (i % 7)}`);
    expect(destinationOf('https://Hooks.Example.com/a?b')).toBe('hooks.example.com');
    expect(destinationOf('not a uri')).toBe('not a uri');
    expect(destinationOf('http://127.0.0.1:9001/x')).not.toBe(destinationOf('http://127.0.0.1:9000/y'));
  });

  it('takes what fits, holds back the rest, and asks later claims to skip full subscriptions and hosts', () => {
    const slots = new DeliverySlots({ total: 8, perSubscription: 2, perHost: 3 });
    slots.beginRound();
    const picked = slots.take(
      [row(1, 10, 'http://a.test/1'), row(2, 10, 'http://a.test/1'), row(3, 10, 'http://a.test/1'), row(4, 11, 'http://a.test/2'), row(5, 11, 'http://a.test/2'), row(6, 12, 'http://b.test/')],
      8,
    );
    // Subscription 10 stops at 2; host a.test stops at 3 (10's two and one of 11's).
    expect(picked).toEqual([1, 2, 4, 6]);
    expect(slots.heldBack).toBe(2);
    expect([...slots.heldBackFrom].sort()).toEqual([10, 11]);
    expect(slots.inFlight).toBe(4);
    expect(slots.free).toBe(4);
    expect(slots.excluded().sort()).toEqual([10, 11]);

    // A subscription seen for the first time on the full host is held back and remembered.
    slots.beginRound();
    expect(slots.take([row(7, 13, 'http://a.test/3')], 4)).toEqual([]);
    expect(slots.learned).toBe(1);
    expect([...slots.heldBackFrom]).toEqual([13]);
    expect(slots.excluded().sort()).toEqual([10, 11, 13]);

    slots.release(4);
    expect(slots.excluded().sort()).toEqual([10]);
    slots.release(1);
    slots.release(2);
    slots.release(6);
    expect(slots.excluded()).toEqual([]);
    expect(slots.free).toBe(8);
  });

  it('never reserves more than the pool holds', () => {
    const slots = new DeliverySlots({ total: 2, perSubscription: 5, perHost: 5 });
    slots.beginRound();
    expect(slots.take([row(1, 1, 'http://a.test/'), row(2, 2, 'http://b.test/'), row(3, 3, 'http://c.test/')], 5)).toEqual([1, 2]);
  });
});
