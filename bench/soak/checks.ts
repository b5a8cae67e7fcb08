import type { RouteTally } from './http-client.js';
import type { ImportStats } from './imports.js';
import type { EventRow, OutboxSnapshot } from './outbox.js';
import type { ReceiverKind, ReceiverStats } from './receivers.js';
import type { ProcessSample } from './server-process.js';
import { eventKey, type StreamStats } from './streams.js';
import type { SoakSubscription } from './subscriptions.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** How much the end reading may exceed the start reading. */
export const GROWTH_TOLERANCE = 0.1;
/** A live stream open this long after an import finished should have had its events. */
export const LIVE_GRACE_MS = 3000;
/** Events this soon after a stream's headers arrived are not held against it. */
export const LIVE_OPEN_MARGIN_MS = 500;

/** 5xx statuses, plus GraphQL INTERNAL_SERVER_ERROR answers (a server failure behind an HTTP 200). */
export function clientServerErrors(tally: RouteTally): Map<string, number> {
  const out = new Map<string, number>();
  for (const [route, s] of tally.routes) {
    const count = Object.entries(s.statuses).filter(([code]) => code.startsWith('5')).reduce((n, [, c]) => n + c, 0) + s.internalErrors;
    if (count > 0) out.set(route, count);
  }
  return out;
}

export function serverErrorCheck(tally: RouteTally, serverSide: Map<string, number> | null): Check {
  const client = clientServerErrors(tally);
  const clientTotal = [...client.values()].reduce((n, c) => n + c, 0);
  const serverTotal = serverSide ? [...serverSide.values()].reduce((n, c) => n + c, 0) : 0;
  const parts = [
    ...[...client].map(([route, c]) => `${route}: ${c}`),
    ...(serverSide ? [...serverSide].map(([route, c]) => `server metrics ${route}: ${c}`) : ['server metrics unavailable']),
  ];
  return {
    name: 'zero 5xx responses (GraphQL INTERNAL_SERVER_ERROR included)',
    ok: clientTotal === 0 && serverTotal === 0 && serverSide !== null,
    detail: parts.length ? parts.join('; ') : `none in ${requestTotal(tally)} requests`,
  };
}

export function requestTotal(tally: RouteTally): number {
  return [...tally.routes.values()].reduce((n, s) => n + s.requests, 0);
}

/** Every request got an answer, with the status the route promises and (GraphQL) no errors. */
export function answeredCheck(tally: RouteTally): Check {
  const problems: string[] = [];
  for (const [route, s] of tally.routes) {
    const expected = route.startsWith('POST /api/webhook/subscriptions') ? '201' : '200';
    const unexpected = Object.entries(s.statuses).filter(([code]) => code !== expected && !code.startsWith('5'));
    const count = s.transportErrors + s.badBodies + unexpected.reduce((n, [, c]) => n + c, 0);
    if (count > 0) problems.push(`${route}: ${count} (${s.samples[0] ?? ''})`);
  }
  return { name: 'every request answered as expected', ok: problems.length === 0, detail: problems.join('; ') || 'yes' };
}

export interface LostEvents {
  expected: number;
  acknowledged: number;
  lost: { subscriptionId: number; receiver: ReceiverKind; eventId: number; why: string }[];
  wrongType: number;
  deactivated: number[];
}

/**
 * Every event committed after a subscription was confirmed, of its company and pair, must have
 * reached that subscription's receiver (a 2xx status line for the delivery's webhook-id), and
 * so must every delivery row the outbox wrote for a run subscription, whatever its timing.
 */
export function lostEvents(snapshot: OutboxSnapshot, subscriptions: readonly SoakSubscription[], receivers: Record<ReceiverKind, ReceiverStats>): LostEvents {
  const deliveryOf = new Map(snapshot.deliveries.map((d) => [`${d.eventId}:${d.subscriptionId}`, d]));
  const typeOf = new Map(snapshot.events.map((e) => [e.id, `${e.event}.${e.eventType}`]));
  const result: LostEvents = { expected: 0, acknowledged: 0, lost: [], wrongType: 0, deactivated: [] };
  for (const s of subscriptions) {
    if (snapshot.active.get(s.id) !== true) result.deactivated.push(s.id);
    const owed = new Set(
      snapshot.events
        .filter((e) => e.companyId === s.companyId && e.event === s.pair.event && e.eventType === s.pair.eventType && e.occurredAt > s.confirmedAt)
        .map((e) => e.id),
    );
    for (const d of snapshot.deliveries) if (d.subscriptionId === s.id) owed.add(d.eventId);
    for (const eventId of owed) {
      result.expected++;
      const delivery = deliveryOf.get(`${eventId}:${s.id}`);
      if (!delivery) {
        result.lost.push({ subscriptionId: s.id, receiver: s.receiver, eventId, why: 'no delivery row in the outbox' });
        continue;
      }
      const seen = receivers[s.receiver].acknowledged.get(delivery.webhookId);
      if (seen === undefined) {
        result.lost.push({ subscriptionId: s.id, receiver: s.receiver, eventId, why: `not acknowledged by the receiver; delivery ${delivery.state} after ${delivery.attemptCount} attempts` });
        continue;
      }
      result.acknowledged++;
      if (seen !== typeOf.get(eventId)) result.wrongType++;
    }
  }
  return result;
}

export function lostEventsCheck(lost: LostEvents): Check {
  const byWhy = new Map<string, number>();
  for (const l of lost.lost) {
    const key = `${l.receiver}: ${l.why.replace(/[0-9]+ attempts/, 'n attempts')}`;
    byWhy.set(key, (byWhy.get(key) ?? 0) + 1);
  }
  const parts = [...byWhy].map(([why, n]) => `${n} × ${why}`);
  if (lost.wrongType > 0) parts.push(`${lost.wrongType} with a body of the wrong type`);
  if (lost.deactivated.length > 0) parts.push(`subscriptions deactivated by the server: ${lost.deactivated.join(',')}`);
  return {
    name: 'zero lost events',
    ok: lost.lost.length === 0 && lost.wrongType === 0 && lost.deactivated.length === 0 && lost.expected > 0,
    detail: parts.join('; ') || `${lost.acknowledged} of ${lost.expected} (event, subscription) pairs acknowledged`,
  };
}

export function signatureCheck(receivers: Record<ReceiverKind, ReceiverStats>): Check {
  const bad = Object.values(receivers).reduce((n, r) => n + r.badSignatures, 0);
  return { name: 'every delivery correctly signed', ok: bad === 0, detail: bad === 0 ? 'yes' : `${bad} deliveries failed verification` };
}

function growth(start: number, end: number): string {
  return `${start} → ${end} (${end >= start ? '+' : ''}${(((end - start) / start) * 100).toFixed(1)} %)`;
}

export function resourceChecks(start: ProcessSample, end: ProcessSample, openAtReceivers: number): Check[] {
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  return [
    {
      name: 'open fds back within 10 %',
      ok: end.fds <= start.fds * (1 + GROWTH_TOLERANCE),
      detail: `${growth(start.fds, end.fds)}${openAtReceivers > 0 ? `; receivers still hold ${openAtReceivers} responses the server never let go of` : ''}`,
    },
    { name: 'RSS back within 10 %', ok: end.rssBytes <= start.rssBytes * (1 + GROWTH_TOLERANCE), detail: `${growth(mb(start.rssBytes), mb(end.rssBytes))} MB` },
  ];
}

export function importCheck(stats: ImportStats): Check {
  return {
    name: 'every import committed',
    ok: stats.failures === 0 && stats.runs.length > 0,
    detail: stats.failures === 0 ? `${stats.runs.length} imports` : `${stats.failures} of ${stats.runs.length} failed: ${stats.samples.join(' / ')}`,
  };
}

/**
 * Live streams: each opened (no refusal), none ended by the server, and each one got every
 * event of its company that occurred after it opened (LIVE_OPEN_MARGIN_MS later, for the
 * subscription to be registered behind the response headers) and whose import had ended
 * LIVE_GRACE_MS before the stream closed.
 */
export function liveCheck(streams: StreamStats, imports: ImportStats, events: readonly EventRow[]): Check {
  const ended = streams.records.filter((r) => r.endedEarly !== null).length;
  const committedBy = (e: EventRow) => imports.runs.find((i) => i.ok && i.companyId === e.companyId && i.startedAt <= e.occurredAt && e.occurredAt <= i.endedAt);
  let owed = 0;
  let missing = 0;
  let incomplete = 0;
  for (const r of streams.records) {
    if (r.closedAt === null) continue;
    let missed = 0;
    for (const e of events) {
      if (e.companyId !== r.companyId || e.occurredAt <= r.openedAt + LIVE_OPEN_MARGIN_MS) continue;
      const run = committedBy(e);
      if (!run || run.endedAt + LIVE_GRACE_MS >= r.closedAt) continue;
      owed++;
      if (!r.received.has(eventKey(`${e.event}.${e.eventType}`, e.occurredAt, e.recordId))) missed++;
    }
    missing += missed;
    if (missed > 0) incomplete++;
  }
  const received = streams.records.reduce((n, r) => n + r.events, 0);
  const problems = [
    streams.refused ? `${streams.refused} refused or failed to open` : '',
    ended ? `${ended} ended by the server` : '',
    missing ? `${missing} of ${owed} events missing on ${incomplete} streams` : '',
  ].filter(Boolean);
  return {
    name: 'live streams open, stay open and get every event',
    ok: problems.length === 0 && streams.records.length > 0,
    detail: problems.length
      ? `${problems.join('; ')}${streams.samples.length ? ` (${streams.samples.join(' / ')})` : ''}`
      : `${streams.records.length} streams, ${received} events received, ${owed} checked against the events table`,
  };
}
