import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebhookConfig } from '../config.js';
import {
  leaseDueDeliveries,
  leaseDueOfSubscriptions,
  readLeased,
  releaseLeases,
  settleDeliveries,
  type AttemptInsert,
  type DueDelivery,
  type LeasedDelivery,
  type Settlement,
} from '../repositories/webhook-deliveries.js';
import { nextModifiedTime } from '../shared/clock.js';
import { toBool } from '../shared/db/columns.js';
import type { Db } from '../shared/db/knex.js';
import { databaseUnavailability } from '../shared/db/unavailable.js';
import { describeError } from '../shared/observability/error-description.js';
import { recordDispatcherLag, recordWebhookAttempt } from '../shared/observability/metrics.js';
import type { AddressGuard } from '../webhooks/address-guard.js';
import { nextAttemptDelayMs, parseRetryAfter } from '../webhooks/retry-schedule.js';
import { postWebhook, SendPools, SendTargets, type SendOutcome } from '../webhooks/sender.js';
import { previousSecretStillSigns, signatureHeader } from '../webhooks/signing.js';
import type { PayloadRenderer } from './payload-renderer.js';
import { Periodic } from '../shared/periodic.js';

export interface DispatcherOptions {
  db: Db;
  config: WebhookConfig;
  guard: AddressGuard;
  renderer: PayloadRenderer;
  now?: () => number;
  /** Names this dispatcher (this instance) in lease rows and in webhook_attempts.instance_id. */
  owner?: string;
}

/** A row leased ahead for a destination: sent when a slot frees, read again under its lease first. */
type Held = DueDelivery & { host: string; token: string; leasedAt: number };

const iso = (ms: number) => new Date(ms).toISOString();
const log = (error: unknown) => console.error('webhook dispatcher:', describeError(error));

/** Claims in a row while rows are being held back by caps and the pool still has room. */
const MAX_ROUNDS = 8;
/** Subscriptions a claim skips at most (and remembered per destination); beyond MAX_EXHAUSTED, remembering which ones a claim can skip is not worth it. */
const MAX_EXCLUDED = 500;
const MAX_EXHAUSTED = 1000;
/** stop() waits for sends in flight this long beyond the send time-out, for recording them. */
const STOP_GRACE_MS = 5000;
/** Idle keep-alive sockets close after this long: under the 5 s many servers keep one. */
const IDLE_SOCKET_MS = 4000;
/** Origins with keep-alive sockets at once. */
const POOLED_ORIGINS = 100;
/** Destinations (and subscriptions of each) remembered for a top-up, or as drained until the next poll. */
const MAX_TOP_UP_HOSTS = 100;
const MAX_TOP_UP_SUBSCRIPTIONS = 50;
const MAX_DRAINED_HOSTS = 1000;
/**
 * Delivered attempts whose records may wait (up to RECORD_DELAY_MS) for company with their slots
 * freed; also the largest batch. The wait stays well inside the lease (WEBHOOK_LEASE_MS is at least
 * 100 ms), so a record written late never meets another dispatcher's lease.
 */
const MAX_WAITING_RECORDS = 64;
const RECORD_DELAY_MS = 10;

/**
 * Rows leased ahead: per destination 2 to 16 rounds of its sends in flight (by how fast it
 * answers), 16 rounds of the pool in all, each held at most 5 s and at most half of what the
 * lease leaves beyond the time-out (below 100 ms, none), so their sends end well inside the lease.
 */
export function rowsAheadLimits(config: Pick<WebhookConfig, 'leaseMs' | 'timeoutMs' | 'concurrency' | 'concurrencyPerHost'>) {
  const maxAgeMs = Math.min(5000, Math.floor((config.leaseMs - config.timeoutMs) / 2));
  if (maxAgeMs < 100) return { perHost: 0, minPerHost: 0, total: 0, maxAgeMs: 0 };
  return { perHost: 16 * config.concurrencyPerHost, minPerHost: 2 * config.concurrencyPerHost, total: 16 * config.concurrency, maxAgeMs };
}

/**
 * Sends due deliveries through a pool of WEBHOOK_CONCURRENCY slots: free slots claim due rows
 * with a lease, and each send frees its slot once its attempt is recorded. Caps per subscription
 * and per destination keep any one receiver to its share (rows over a cap are released at once).
 * For a destination that answers, due rows are leased ahead (rowsAheadLimits), so a slot it frees
 * is refilled without a claim. A dispatcher that dies loses nothing: its leases expire.
 */
export class Dispatcher extends Periodic {
  private readonly db: Db;
  private readonly config: WebhookConfig;
  private readonly now: () => number;
  readonly owner: string;
  private readonly pools: SendPools;
  private readonly targets: SendTargets;
  private readonly records: RecordBatches;
  private readonly ahead: ReturnType<typeof rowsAheadLimits>;
  /** Sends under way, each until its attempt is recorded: stop() waits for them. */
  private readonly sending = new Set<Promise<void>>();
  /** Taken slots by delivery, and the counts the caps are checked against. */
  private readonly slots = new Map<number, { subscriptionId: number; host: string }>();
  private readonly perSubscription = new Map<number, number>();
  /** Destinations with sends in flight, and the subscriptions seen sending to each meanwhile. */
  private readonly perHost = new Map<string, { sending: number; subscriptions: Set<number> }>();
  /** Rows leased ahead, oldest due first. */
  private held: Held[] = [];
  /** Destinations that answered while few rows were held for them: the next fill leases more. */
  private readonly topUps = new Map<string, { subscriptions: Set<number>; answerMs: number }>();
  /** Destinations whose last top-up found fewer rows than asked: none again until the next poll or wake. */
  private readonly drained = new Set<string>();
  /** What a claim that found fewer rows than it asked for skipped (and gave back): none skipping them all again until the next poll or wake. */
  private exhausted: Set<number> | null = null;
  /** The last claim left due rows behind: a finished send fills again at once. */
  private backlog = false;
  private fillScheduled = false;

  constructor(private readonly options: DispatcherOptions) {
    super('webhook dispatcher', options.config.pollIntervalMs);
    this.db = options.db;
    this.config = options.config;
    this.now = options.now ?? Date.now;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const limits = { socketsPerOrigin: this.config.concurrencyPerHost, idleMs: IDLE_SOCKET_MS, origins: POOLED_ORIGINS, connectTimeoutMs: this.config.timeoutMs };
    this.pools = new SendPools(options.guard, limits);
    this.targets = new SendTargets(options.guard);
    this.records = new RecordBatches((batch) => settleDeliveries(this.db, batch));
    this.ahead = rowsAheadLimits(this.config);
  }

  /** Stops claiming and waits, bounded, for the sends in flight to be recorded (one still unrecorded keeps its lease); rows leased ahead go back. */
  override async stop(): Promise<void> {
    const filled = super.stop();
    const drained = (async () => {
      await filled;
      this.records.flush();
      await Promise.allSettled([...this.sending]);
    })();
    await Promise.race([drained, new Promise<void>((resolve) => setTimeout(resolve, this.config.timeoutMs + STOP_GRACE_MS).unref())]);
    this.topUps.clear();
    this.drained.clear();
    await this.giveBack(this.held.splice(0));
    await this.pools.close();
  }

  /** New work was written (a PostgreSQL notification, or the poll): look now, claims included. */
  override wake(): void {
    this.exhausted = null;
    this.drained.clear();
    super.wake();
  }

  /** A fill after this turn's I/O callbacks, so slots freed by answers that arrived together are refilled together. */
  private fillSoon(): void {
    if (this.fillScheduled) return;
    this.fillScheduled = true;
    setImmediate(() => {
      this.fillScheduled = false;
      this.run();
    });
  }

  /** Rows leased ahead go first (stale ones back), then top-ups for destinations that just answered, then claims. */
  protected async tick(): Promise<void> {
    const now = this.now();
    const fresh = (h: Held) => now - h.leasedAt <= this.ahead.maxAgeMs;
    const stale = this.held.filter((h) => !fresh(h));
    this.held = this.held.filter(fresh);
    if (stale.length > 0) await this.giveBack(stale);
    await this.sendHeld();
    if (await this.topUp()) await this.sendHeld();
    await this.claimIntoFreeSlots();
  }

  private get free(): number {
    return this.config.concurrency - this.slots.size;
  }

  /** Where a delivery goes, for the per-host cap: host and port (a URI that cannot be sent to counts as its own). */
  private destinationOf(uri: string): string {
    const target = this.targets.targetOf(uri);
    return 'host' in target ? target.host : uri;
  }

  private fits(subscriptionId: number, host: string): boolean {
    return (
      (this.perSubscription.get(subscriptionId) ?? 0) < this.config.concurrencyPerSubscription &&
      (this.perHost.get(host)?.sending ?? 0) < this.config.concurrencyPerHost
    );
  }

  private take(id: number, subscriptionId: number, host: string): void {
    this.slots.set(id, { subscriptionId, host });
    this.perSubscription.set(subscriptionId, (this.perSubscription.get(subscriptionId) ?? 0) + 1);
    const destination = this.perHost.get(host) ?? { sending: 0, subscriptions: new Set<number>() };
    destination.sending++;
    this.perHost.set(host, destination);
    this.remember(host, subscriptionId);
  }

  private release(id: number): void {
    const slot = this.slots.get(id);
    if (!slot) return;
    this.slots.delete(id);
    const count = (this.perSubscription.get(slot.subscriptionId) ?? 1) - 1;
    if (count > 0) this.perSubscription.set(slot.subscriptionId, count);
    else this.perSubscription.delete(slot.subscriptionId);
    const destination = this.perHost.get(slot.host);
    // Nothing in flight there any more: its subscriptions are forgotten, so the map stays small.
    if (destination && --destination.sending <= 0) this.perHost.delete(slot.host);
  }

  /** Notes that `subscriptionId` sends to `host` (while it has sends in flight); whether that is news. */
  private remember(host: string, subscriptionId: number): boolean {
    const subscriptions = this.perHost.get(host)?.subscriptions;
    if (!subscriptions || subscriptions.has(subscriptionId) || subscriptions.size >= MAX_EXCLUDED) return false;
    subscriptions.add(subscriptionId);
    return true;
  }

  /** Subscriptions a claim should not take rows of now: at their own cap, or seen on a destination at its cap. */
  private excluded(): number[] {
    const ids = new Set<number>();
    for (const [id, count] of this.perSubscription) if (count >= this.config.concurrencyPerSubscription) ids.add(id);
    for (const { sending, subscriptions } of this.perHost.values()) {
      if (sending >= this.config.concurrencyPerHost) for (const id of subscriptions) ids.add(id);
    }
    return [...ids].slice(0, MAX_EXCLUDED);
  }

  /**
   * Sends held rows that fit under the caps, oldest due first, each read again under its lease. The
   * pool's last free slot is left to claims: rows ahead never take it from other tenants' rows.
   */
  private async sendHeld(): Promise<void> {
    const room = this.free - 1;
    if (this.held.length === 0 || room <= 0 || !this.started) return;
    const picked: Held[] = [];
    this.held = this.held.filter((h) => {
      if (picked.length >= room || !this.fits(h.subscriptionId, h.host)) return true;
      this.take(h.id, h.subscriptionId, h.host);
      picked.push(h);
      return false;
    });
    if (picked.length === 0) return;
    const rows = await readLeased(this.db, picked.map((h) => h.id)).catch((error: unknown) => {
      // Unread: their slots are freed, and the leases expire, for any dispatcher to send them.
      for (const h of picked) this.release(h.id);
      throw error;
    });
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const moved: Held[] = [];
    for (const h of picked) {
      const row = byId.get(h.id);
      if (row?.lease_owner === h.token && this.destinationOf(row.uri) === h.host) {
        recordDispatcherLag([row.next_attempt_at], this.now());
        this.launch(row);
        continue;
      }
      this.release(h.id);
      // Still ours, but its subscription now points elsewhere: due again, for a claim to place it.
      if (row?.lease_owner === h.token) moved.push(h);
    }
    await this.giveBack(moved);
  }

  /**
   * How many more rows `host`, answering in about `answerMs`, should have leased ahead: up to what its
   * sends get through in half the age bound, but none while it still holds more than half of that.
   */
  private wantedAhead(host: string, answerMs: number): number {
    const atPace = Math.floor(this.ahead.maxAgeMs / 2 / Math.max(answerMs, 1)) * this.config.concurrencyPerHost;
    const bound = Math.min(this.ahead.perHost, Math.max(this.ahead.minPerHost, atPace));
    const held = this.held.reduce((n, h) => (h.host === host ? n + 1 : n), 0);
    return held > Math.floor(bound / 2) ? 0 : bound - held;
  }

  /** A send to `row`'s destination was answered after `answerMs`: if few rows are held for it, ask for more. */
  private noteAnswered(row: LeasedDelivery, answerMs: number): void {
    if (this.ahead.perHost === 0) return;
    const host = this.destinationOf(row.uri);
    if (this.drained.has(host)) return;
    let topUp = this.topUps.get(host);
    const slowest = Math.max(answerMs, topUp?.answerMs ?? 0);
    if (topUp) topUp.answerMs = slowest;
    if (this.wantedAhead(host, slowest) === 0) return;
    if (!topUp) {
      if (this.topUps.size >= MAX_TOP_UP_HOSTS) return;
      this.topUps.set(host, (topUp = { subscriptions: new Set(), answerMs: slowest }));
    }
    if (topUp.subscriptions.size < MAX_TOP_UP_SUBSCRIPTIONS) topUp.subscriptions.add(Number(row.subscription_id));
  }

  /** Leases rows ahead for the destinations that answered while few were held for them, one statement each; whether any was added. */
  private async topUp(): Promise<boolean> {
    const wanted = [...this.topUps];
    this.topUps.clear();
    let added = false;
    for (const [host, { subscriptions, answerMs }] of wanted) {
      // The last free slot is left to claims: with none to spare, nothing is leased ahead.
      if (!this.started || this.free <= 1) break;
      const limit = this.drained.has(host) ? 0 : Math.min(this.wantedAhead(host, answerMs), this.ahead.total - this.held.length);
      if (limit <= 0) continue;
      for (const id of this.perHost.get(host)?.subscriptions ?? []) {
        if (subscriptions.size >= MAX_TOP_UP_SUBSCRIPTIONS) break;
        subscriptions.add(id);
      }
      const nowMs = this.now();
      const token = `${this.owner}:${randomUUID()}`;
      const leased = await leaseDueOfSubscriptions(this.db, { token, now: iso(nowMs), until: iso(nowMs + this.config.leaseMs), limit, subscriptions: [...subscriptions] });
      if (leased.length < limit) {
        if (this.drained.size >= MAX_DRAINED_HOSTS) this.drained.clear();
        this.drained.add(host);
      }
      if (leased.length === 0) continue;
      for (const row of leased) this.held.push({ ...row, host, token, leasedAt: nowMs });
      // Due times are ISO-8601 strings of one shape: code-unit order is time order.
      this.held.sort((a, b) => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : a.id - b.id));
      added = true;
    }
    return added;
  }

  /** Hands leases back (best effort: a lease not given back just expires). */
  private async giveBack(rows: readonly { id: number; token: string }[]): Promise<void> {
    const byToken = new Map<string, number[]>();
    for (const row of rows) byToken.set(row.token, [...(byToken.get(row.token) ?? []), row.id]);
    for (const [token, ids] of byToken) await releaseLeases(this.db, ids, token).catch(log);
  }

  private async claimIntoFreeSlots(): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS && this.started; round++) {
      const free = this.free;
      if (free <= 0) {
        this.backlog = true;
        return;
      }
      const excluded = this.excluded();
      if (this.exhausted) {
        const skipping = new Set(excluded);
        if ([...this.exhausted].every((id) => skipping.has(id))) return;
      }
      const rows = await this.claim(free, this.config.leaseMs, excluded);
      recordDispatcherLag(rows.map((row) => row.next_attempt_at), this.now());
      rows.sort((a, b) => String(a.next_attempt_at).localeCompare(String(b.next_attempt_at)) || Number(a.id) - Number(b.id));
      // Rows over a cap (a subscription or destination met for the first time) cost no attempt: released at once.
      const over: LeasedDelivery[] = [];
      let learned = false;
      for (const row of rows) {
        const subscriptionId = Number(row.subscription_id);
        const host = this.destinationOf(row.uri);
        if (this.fits(subscriptionId, host)) {
          this.take(Number(row.id), subscriptionId, host);
          this.launch(row);
        } else {
          over.push(row);
          learned = this.remember(host, subscriptionId) || learned;
        }
      }
      if (over.length > 0) await releaseLeases(this.db, over.map((row) => Number(row.id)), over[0]!.lease_owner).catch(log);
      const givenBack = over.map((row) => Number(row.subscription_id));
      if (rows.length < free) this.exhausted = new Set([...excluded, ...givenBack]);
      else for (const id of givenBack) this.exhausted?.add(id);
      if (this.exhausted && this.exhausted.size > MAX_EXHAUSTED) this.exhausted = null;
      // Rows of a subscription or destination at its cap may be waiting: its next finished send makes room.
      this.backlog = rows.length >= free || over.length > 0 || excluded.length > 0;
      // Rows held back by a cap may hide others further down: look again while that can help.
      if (over.length === 0 || (over.length === rows.length && !learned)) return;
    }
  }

  /** Leases up to `limit` due deliveries, oldest first, except those of the `excluded` subscriptions (leaseDueDeliveries). */
  claim(limit: number, leaseMs = this.config.leaseMs, excluded: readonly number[] = []): Promise<LeasedDelivery[]> {
    const nowMs = this.now();
    return leaseDueDeliveries(this.db, { token: `${this.owner}:${randomUUID()}`, now: iso(nowMs), until: iso(nowMs + leaseMs), limit, excluded });
  }

  /** Sends a delivery whose slot is taken; the slot frees once its attempt is recorded (see finish). */
  private launch(row: LeasedDelivery): void {
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      this.release(Number(row.id));
      if (this.backlog || this.held.length > 0 || this.topUps.size > 0) this.fillSoon();
    };
    const send: Promise<void> = this.deliver(row, free)
      // Unrecorded: the lease expires and the delivery is sent again.
      .catch(log)
      .finally(() => {
        this.sending.delete(send);
        free();
      });
    this.sending.add(send);
  }

  /** Sends one leased delivery and records the attempt; resolves once the record is written (`queued`: see finish). */
  async deliver(row: LeasedDelivery, queued?: () => void): Promise<void> {
    if (!toBool(row.is_active)) {
      // Paused or disabled subscriptions receive nothing; the row stays in the log and can be redelivered.
      return this.finish(row, null, { state: 'failed' });
    }
    let outcome: SendOutcome;
    let rendered = false;
    try {
      const body = await this.options.renderer.payloadOf(row);
      rendered = true;
      const nowMs = this.now();
      const timestamp = Math.floor(nowMs / 1000);
      const secrets = [row.signing_secret];
      if (row.previous_signing_secret && previousSecretStillSigns(row.previous_secret_expires_at, nowMs)) secrets.push(row.previous_signing_secret);
      const headers = {
        'webhook-id': row.webhook_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, row.webhook_id, timestamp, body),
      };
      outcome = await postWebhook(row.uri, headers, body, { timeoutMs: this.config.timeoutMs, guard: this.options.guard, pools: this.pools, targets: this.targets });
    } catch (error) {
      // Our database, not the receiver, failed while the body was rendered: no attempt is charged
      // to the receiver. Unrecorded, the lease expires and the delivery is sent again.
      if (!rendered && databaseUnavailability(error)) throw error;
      outcome = { status: null, durationMs: 0, error: error instanceof Error ? error.message.slice(0, 200) : 'error', retryAfter: undefined };
    }
    await this.record(row, outcome, queued);
  }

  private async record(row: LeasedDelivery, outcome: SendOutcome, queued?: () => void): Promise<void> {
    const nowMs = this.now();
    const attempt: AttemptInsert = {
      delivery_id: Number(row.id),
      attempted_at: iso(nowMs),
      http_status: outcome.status,
      duration_ms: outcome.durationMs,
      error: outcome.error,
      instance_id: this.owner,
    };
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    recordWebhookAttempt(ok);
    // Rows are leased ahead only for a destination that answers.
    if (outcome.status !== null) this.noteAnswered(row, outcome.durationMs);
    if (ok) return this.finish(row, attempt, { state: 'delivered', failingSince: null }, queued);
    // 410 Gone: the receiver says the endpoint is retired; stop at once.
    if (outcome.status === 410) return this.finish(row, attempt, { state: 'failed', deactivate: true });
    const honoured = outcome.status === 429 || outcome.status === 503 ? parseRetryAfter(outcome.retryAfter, nowMs) : null;
    const delay = nextAttemptDelayMs(this.config.retryScheduleSeconds, Number(row.attempt_count) + 1, honoured);
    const retryAt = delay === null ? undefined : iso(nowMs + delay);
    const failingSince = row.failing_since ?? iso(nowMs);
    const disable = nowMs - Date.parse(failingSince) >= this.config.disableAfterHours * 3600 * 1000;
    return this.finish(row, attempt, { state: retryAt ? 'pending' : 'failed', retryAt, ...(disable ? { deactivate: true } : { failingSince }) });
  }

  /**
   * Records the attempt and moves the delivery on (while it still holds the lease), in a
   * transaction shared with others. A delivered attempt's record may wait a few milliseconds for
   * company while `queued` frees its slot (the row stays leased until written: a crash means a
   * resend, never a loss); failed attempts are written first, so the next send sees their pause.
   */
  private async finish(
    row: LeasedDelivery,
    attempt: AttemptInsert | null,
    next: { state: string; retryAt?: string; failingSince?: string | null; deactivate?: boolean },
    queued?: () => void,
  ): Promise<void> {
    const nowMs = this.now();
    const settlement: Settlement = {
      deliveryId: Number(row.id),
      leaseOwner: row.lease_owner,
      delivery: {
        state: next.state,
        attempt_count: attempt ? Number(row.attempt_count) + 1 : undefined,
        next_attempt_at: next.retryAt ?? null,
        completed_at: next.retryAt ? null : iso(nowMs),
      },
      attempt,
      subscriptionId: Number(row.subscription_id),
      failingSince: next.failingSince,
      deactivate: next.deactivate ? (previous) => nextModifiedTime(new Date(nowMs), previous ?? row.modified_date_time) : undefined,
    };
    const now = !queued || !this.started || this.records.waiting.length >= MAX_WAITING_RECORDS;
    const written = this.records.add(settlement, now);
    if (!now) queued();
    await written;
  }
}

/**
 * Group commit for attempt records: add() resolves once its record is written. A record added
 * `now` is written after this turn, taking every waiting one with it; others may wait up to
 * RECORD_DELAY_MS for company. A batch that fails is written again one record at a time, so one bad
 * record never takes the others with it (one never written leaves its delivery leased).
 */
class RecordBatches {
  readonly waiting: { settlement: Settlement; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private scheduled = false;
  private writes = Promise.resolve();

  constructor(private readonly write: (batch: readonly Settlement[]) => Promise<unknown>) {}

  add(settlement: Settlement, now: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ settlement, resolve, reject });
      if (now || this.waiting.length >= MAX_WAITING_RECORDS) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), RECORD_DELAY_MS);
    });
  }

  /** Writes everything waiting after this turn, without waiting out the delay. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.scheduled) return;
    this.scheduled = true;
    // After this turn's I/O callbacks, so answers that arrived together share the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.writes = this.writes.then(() => this.writeWaiting());
    });
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_WAITING_RECORDS);
      try {
        await this.write(batch.map((w) => w.settlement));
        for (const w of batch) w.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const w of batch) await this.write([w.settlement]).then(w.resolve, w.reject);
      }
    }
  }
}
