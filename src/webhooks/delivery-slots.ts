import { setBounded } from '../shared/bounded-map.js';

/** A due delivery as a claim first sees it: enough to decide whether it fits. */
export interface DueDelivery {
  id: number;
  subscriptionId: number;
  /** Where it goes: the subscription's uri, or its destination already worked out (destinationOf). */
  uri?: string;
  host?: string;
}

export interface SlotLimits {
  total: number;
  perSubscription: number;
  perHost: number;
}

/** The most subscription ids a claim is asked to skip; beyond that, `take` still holds rows back. */
const MAX_EXCLUDED = 500;

/** URIs whose destination is kept (least recently added dropped first): as many as the dispatcher keeps send targets. */
const DESTINATIONS_KEPT = 1000;
const destinations = new Map<string, string>();

/**
 * Where a delivery goes, for the per-host cap: host and port, so two receivers on one machine
 * (different ports) are separate destinations while every subscription of one endpoint shares
 * one.
 */
export function destinationOf(uri: string): string {
  let destination = destinations.get(uri);
  if (destination === undefined) {
    try {
      destination = new URL(uri).host.toLowerCase();
    } catch {
      destination = uri;
    }
    // A handful of URIs are sent to over and over: each is parsed once while it is among the latest.
    setBounded(destinations, uri, destination, DESTINATIONS_KEPT);
  }
  return destination;
}

/**
 * The dispatcher's sends in flight, counted per subscription and per destination. A claim asks
 * which subscriptions to skip (already at a cap), then `take` picks from the rows it got those
 * that fit and reserves their slots; `release` frees a slot when its send is recorded. So one
 * receiver that hangs holds at most its share of the pool, and its other rows stay unclaimed.
 */
export class DeliverySlots {
  private readonly reserved = new Map<number, { subscriptionId: number; host: string }>();
  private readonly bySubscription = new Map<number, number>();
  private readonly byHost = new Map<string, number>();
  /** Subscriptions seen sending to each host that has sends in flight. */
  private readonly subscriptionsOfHost = new Map<string, Set<number>>();
  /** Since `beginRound`: due rows held back by a cap, and subscriptions newly found on a full host. */
  heldBack = 0;
  learned = 0;
  /** Since `beginRound`: the subscriptions of the rows held back (at most one claim's rows). */
  readonly heldBackFrom = new Set<number>();

  constructor(private readonly limits: SlotLimits) {}

  get free(): number {
    return this.limits.total - this.reserved.size;
  }

  get inFlight(): number {
    return this.reserved.size;
  }

  /** Subscriptions a claim should not take rows of now: at their own cap, or on a host at its cap. */
  excluded(): number[] {
    const ids = new Set<number>();
    for (const [subscriptionId, count] of this.bySubscription) {
      if (count >= this.limits.perSubscription) ids.add(subscriptionId);
    }
    for (const [host, count] of this.byHost) {
      if (count < this.limits.perHost) continue;
      for (const subscriptionId of this.subscriptionsOfHost.get(host) ?? []) ids.add(subscriptionId);
    }
    return [...ids].slice(0, MAX_EXCLUDED);
  }

  /** Subscriptions seen sending to `host` while it has sends in flight (at most MAX_EXCLUDED). */
  subscriptionsOf(host: string): ReadonlySet<number> {
    return this.subscriptionsOfHost.get(host) ?? new Set();
  }

  /** Starts counting `heldBack` and `learned` for a new claim. */
  beginRound(): void {
    this.heldBack = 0;
    this.learned = 0;
    this.heldBackFrom.clear();
  }

  /** Picks, oldest first, up to `limit` of `due` that fit under the caps, and reserves their slots. */
  take(due: readonly DueDelivery[], limit: number): number[] {
    const picked: number[] = [];
    const room = Math.min(limit, this.free);
    for (const row of due) {
      if (picked.length >= room) break;
      const host = row.host ?? destinationOf(row.uri ?? '');
      const hostFull = (this.byHost.get(host) ?? 0) >= this.limits.perHost;
      if (hostFull || (this.bySubscription.get(row.subscriptionId) ?? 0) >= this.limits.perSubscription) {
        this.heldBack++;
        this.heldBackFrom.add(row.subscriptionId);
        if (hostFull && this.remember(host, row.subscriptionId)) this.learned++;
        continue;
      }
      this.reserved.set(row.id, { subscriptionId: row.subscriptionId, host });
      this.bySubscription.set(row.subscriptionId, (this.bySubscription.get(row.subscriptionId) ?? 0) + 1);
      this.byHost.set(host, (this.byHost.get(host) ?? 0) + 1);
      this.remember(host, row.subscriptionId);
      picked.push(row.id);
    }
    return picked;
  }

  /** Frees the slot reserved for a delivery (sent and recorded, or not leased after all). */
  release(deliveryId: number): void {
    const slot = this.reserved.get(deliveryId);
    if (!slot) return;
    this.reserved.delete(deliveryId);
    const subscriptionCount = (this.bySubscription.get(slot.subscriptionId) ?? 1) - 1;
    if (subscriptionCount > 0) this.bySubscription.set(slot.subscriptionId, subscriptionCount);
    else this.bySubscription.delete(slot.subscriptionId);
    const hostCount = (this.byHost.get(slot.host) ?? 1) - 1;
    if (hostCount > 0) this.byHost.set(slot.host, hostCount);
    else {
      // Nothing in flight to that host: forget its subscriptions, so the map stays small.
      this.byHost.delete(slot.host);
      this.subscriptionsOfHost.delete(slot.host);
    }
  }

  private remember(host: string, subscriptionId: number): boolean {
    if (!this.byHost.has(host)) return false;
    let subscriptions = this.subscriptionsOfHost.get(host);
    if (!subscriptions) this.subscriptionsOfHost.set(host, (subscriptions = new Set()));
    if (subscriptions.has(subscriptionId) || subscriptions.size >= MAX_EXCLUDED) return false;
    subscriptions.add(subscriptionId);
    return true;
  }
}
