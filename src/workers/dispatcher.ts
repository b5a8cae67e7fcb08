import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebhookConfig } from '../config.js';
import {
  leaseDueDeliveries,
  leaseDueOfSubscriptions,
  readLeased,
  releaseLeases,
  settleDeliveries,
  eventsForSend,
  type AttemptInsert,
  type EventForSend,
  type HeldDelivery,
  type LeasedDelivery,
  type Settlement,
} from '../repositories/webhook-deliveries.js';
import { storePayloadsOnce, unrenderedEvents, type UnrenderedEvent } from '../repositories/webhook-events.js';
import { nextModifiedTime } from '../shared/clock.js';
import { toBool } from '../shared/db/columns.js';
import { databaseUnavailability } from '../shared/db/unavailable.js';
import type { Db } from '../shared/db/knex.js';
import type { Statements } from '../shared/db/statements.js';
import { recordDispatcherLag, recordWebhookAttempt } from '../shared/observability/metrics.js';
import type { AddressGuard } from '../webhooks/address-guard.js';
import { DeliverySlots, destinationOf } from '../webhooks/delivery-slots.js';
import { bufferLimitsFor, LeasedBuffer, type BufferedDelivery } from '../webhooks/leased-buffer.js';
import { nextAttemptDelayMs, parseRetryAfter } from '../webhooks/retry-schedule.js';
import { SendTargets } from '../webhooks/send-targets.js';
import { postWebhook, SendPools, type SendOutcome } from '../webhooks/sender.js';
import { liveSigningSecrets, signatureHeader } from '../webhooks/signing.js';
import type { PayloadRenderer } from './payload-renderer.js';
import { SettleQueue } from './settle-queue.js';
import { describeError } from '../shared/observability/error-description.js';

export interface DispatcherOptions {
  db: Db;
  config: WebhookConfig;
  guard: AddressGuard;
  renderer: PayloadRenderer;
  now?: () => number;
  /** Names this dispatcher (this instance) in lease rows and in webhook_attempts.instance_id. */
  owner?: string;
  random?: () => number;
}

/** What sending a row and recording its attempt read from it (a claimed row has its event's columns too). */
type SendRow = HeldDelivery;

/** A top-up asked for by answered sends to one destination. */
interface TopUp {
  /** Subscriptions seen sending there. */
  subscriptions: Set<number>;
  /** The longest of those sends, in ms: how many rows are worth leasing ahead (LeasedBuffer.boundFor). */
  answerMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Claims in a row while rows are being held back by caps and the pool still has room. */
const MAX_ROUNDS = 8;
/** Beyond this many subscriptions, remembering which ones a claim can skip is not worth it. */
const MAX_EXHAUSTED = 1000;
/** stop() waits for sends in flight this long beyond the send time-out, for recording them. */
const STOP_GRACE_MS = 5000;
/**
 * Idle keep-alive sockets are closed after this long: under the 5 s Node's own servers (and
 * many others) keep an idle connection, so the receiver rarely closes one just as it is reused.
 */
const IDLE_SOCKET_MS = 4000;
/** Origins with keep-alive sockets at once; the least recently used one's are closed first. */
const POOLED_ORIGINS = 100;
/** Delivery URIs whose reading (SendTargets) is kept; beyond this the least recently used is read again. */
const SEND_TARGETS = 1000;
/** Destinations (and subscriptions of each) remembered for a top-up between two claim sequences. */
const MAX_TOP_UP_HOSTS = 100;
const MAX_TOP_UP_SUBSCRIPTIONS = 50;
/** Destinations remembered as having no more due rows until the next poll; beyond this, forgotten. */
const MAX_DRAINED_HOSTS = 1000;
/**
 * Delivered attempts whose record may wait for others to share its transaction, with their
 * slots already freed; beyond this many, a delivered send holds its slot until written, as a
 * failed one always does. Also the largest settle transaction.
 */
const MAX_DEFERRED_SETTLES = 64;
/** How long a deferred record waits for others before it is written anyway. */
const SETTLE_DELAY_MS = 10;

/**
 * Sends due deliveries from the outbox through a pool of WEBHOOK_CONCURRENCY slots. Whenever
 * slots are free it claims due rows with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL), and
 * each send frees its slot as soon as its attempt is recorded, so one slow receiver never holds
 * up the rest. Caps per subscription and per destination host keep any one receiver to its
 * share; rows over a cap are left unclaimed (or released at once) for later. For a destination
 * that answers, a few of its due rows are leased ahead into a bounded buffer (LeasedBuffer), so
 * a slot it frees is refilled without a claim; each is read again under its lease just before it
 * is sent. A dispatcher that dies loses nothing:
 * its leases expire and any dispatcher takes the rows again, which is why delivery is
 * at-least-once and receivers deduplicate on webhook-id.
 */
export class Dispatcher {
  private readonly db: Db;
  private readonly config: WebhookConfig;
  private readonly now: () => number;
  readonly owner: string;
  private readonly slots: DeliverySlots;
  /** Sends under way, and bodies being rendered ahead (renderAhead): stop() waits for both. */
  private readonly sending = new Set<Promise<void>>();
  private readonly pools: SendPools;
  private timer: NodeJS.Timeout | null = null;
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  /** The last claim left due rows behind (pool full, or caps): a finished send claims again at once. */
  private backlog = false;
  /**
   * When a claim found fewer due rows than it asked for: the subscriptions it excluded and those
   * of the rows it gave back. Until the next poll or wake, a claim excluding all of them (and
   * maybe more) could only find rows that became due since, so it is not made. Without this, a
   * host at its cap with a long backlog cost a scan of that backlog for every send that finished.
   */
  private exhaustedExcluding: Set<number> | null = null;
  /** Attempt records, and the leases ahead and stored bodies that share their transactions. */
  private readonly settles: SettleQueue<Settlement, Statements>;
  /** Records of delivered sends queued in `settles` whose slots were freed before they were written. */
  private deferredSettles = 0;
  private readonly buffer: LeasedBuffer;
  /** Delivery URIs read once each (parsed, literal addresses checked), for every send to them. */
  private readonly targets: SendTargets;
  /**
   * Destinations whose send was just answered while their buffer ran low (down to half of what
   * their pace allows, LeasedBuffer.boundFor), with the subscriptions seen sending there and the
   * longest of those sends: the next claim sequence leases rows ahead for them.
   */
  private readonly topUps = new Map<string, TopUp>();
  /** Destinations whose last top-up found fewer due rows than it asked for: none again until the next poll or wake. */
  private readonly drained = new Set<string>();
  private stopped = true;

  constructor(private readonly options: DispatcherOptions) {
    this.db = options.db;
    this.config = options.config;
    this.now = options.now ?? Date.now;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.slots = new DeliverySlots({
      total: this.config.concurrency,
      perSubscription: this.config.concurrencyPerSubscription,
      perHost: this.config.concurrencyPerHost,
    });
    this.pools = new SendPools(options.guard, {
      socketsPerOrigin: this.config.concurrencyPerHost,
      idleMs: IDLE_SOCKET_MS,
      origins: POOLED_ORIGINS,
      connectTimeoutMs: this.config.timeoutMs,
    });
    this.settles = new SettleQueue<Settlement, Statements>((batch, riders) => settleDeliveries(this.db, batch, riders), {
      maxBatch: Math.max(this.config.concurrency, MAX_DEFERRED_SETTLES),
      // Well inside the lease, so a record written late never meets another dispatcher's lease.
      delayMs: Math.min(SETTLE_DELAY_MS, Math.floor(this.config.leaseMs / 10)),
    });
    this.buffer = new LeasedBuffer(bufferLimitsFor(this.config));
    this.targets = new SendTargets(options.guard, SEND_TARGETS);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.poll();
  }

  /**
   * Stops claiming and waits for the sends in flight, so no attempt is left half-recorded. Each
   * send ends within the send time-out; the wait is bounded anyway, and a send still unrecorded
   * after it keeps its lease, which expires and lets any dispatcher send it again.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const drained = (async () => {
      await this.filling;
      // Deferred records are written now rather than after their delay.
      this.settles.flush();
      await Promise.allSettled([...this.sending]);
    })();
    let deadline: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      deadline = setTimeout(resolve, this.config.timeoutMs + STOP_GRACE_MS);
      deadline.unref();
    });
    await Promise.race([drained, limit]);
    clearTimeout(deadline);
    // Rows leased ahead go back at once, for any dispatcher to take, rather than when their leases expire.
    this.topUps.clear();
    this.drained.clear();
    await this.giveBack(this.buffer.takeAll());
    // Idle connections go now; a later start() opens new ones.
    await this.pools.close();
  }

  /** New work was written (a PostgreSQL notification): look now instead of at the next poll. */
  wake(): void {
    this.exhaustedExcluding = null;
    this.drained.clear();
    this.fill();
  }

  private poll(): void {
    if (this.stopped) return;
    this.exhaustedExcluding = null;
    this.drained.clear();
    this.fill();
    this.timer = setTimeout(() => this.poll(), this.config.pollIntervalMs);
    this.timer.unref();
  }

  private fillScheduled = false;

  /** fill() after this turn's I/O callbacks, so slots freed by answers that arrived together are refilled together. */
  private fillSoon(): void {
    if (this.fillScheduled) return;
    this.fillScheduled = true;
    setImmediate(() => {
      this.fillScheduled = false;
      this.fill();
    });
  }

  /** Claims into free slots; one claim sequence at a time, a request during it runs once after. */
  private fill(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = this.fillSlots()
      .catch((error: unknown) => {
        if (!this.stopped) console.error('webhook dispatcher:', describeError(error));
      })
      .finally(() => {
        this.filling = null;
        if (this.fillAgain) {
          this.fillAgain = false;
          this.fill();
        }
      });
  }

  /**
   * Rows leased ahead go first, then the buffers of destinations that just answered are topped
   * up (and what fits is sent), then free slots left are claimed into as before.
   */
  private async fillSlots(): Promise<void> {
    await this.giveBack(this.buffer.takeStale(this.now()));
    await this.sendBuffered();
    if (await this.topUp()) await this.sendBuffered();
    await this.claimIntoFreeSlots();
  }

  /**
   * Sends held rows that fit under the caps, oldest due first, each read again under its lease
   * first: a row whose lease was cleared or passed on is dropped, unsent. Held rows never take
   * the pool's last free slot, which is left to a claim: the buffer only ever speeds up
   * destinations at their own cap, never takes the pool from rows of others due before them.
   */
  private async sendBuffered(): Promise<void> {
    const room = this.slots.free - 1;
    if (this.buffer.size === 0 || room <= 0 || this.stopped) return;
    const candidates = this.buffer.sendable(this.now());
    const picked = new Set(this.slots.take(candidates, room));
    if (picked.size === 0) return;
    const byToken = new Map<string, BufferedDelivery[]>();
    for (const held of candidates) {
      if (!picked.has(held.id)) continue;
      this.buffer.remove(held.id);
      const group = byToken.get(held.token);
      if (group) group.push(held);
      else byToken.set(held.token, [held]);
    }
    const groups = [...byToken];
    for (let g = 0; g < groups.length; g++) {
      const [token, held] = groups[g]!;
      let rows: HeldDelivery[];
      try {
        rows = await readLeased(this.db, token, held.map((h) => h.id));
      } catch (error) {
        // Unread: their slots (and those of the groups not read yet) are freed, and the leases
        // expire, for any dispatcher to send them.
        for (const [, unread] of groups.slice(g)) for (const h of unread) this.slots.release(h.id);
        throw error;
      }
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      const moved: BufferedDelivery[] = [];
      const unrendered: HeldDelivery[] = [];
      for (const h of held) {
        const row = byId.get(h.id);
        if (!row || destinationOf(row.uri) !== h.host) {
          this.slots.release(h.id);
          // Its subscription now points elsewhere: due again, for a claim to place it.
          if (row) moved.push(h);
          continue;
        }
        recordDispatcherLag([row.next_attempt_at], this.now());
        // Its body stored lately or being rendered now (rendered ahead, usually): the event is not read.
        const body = this.options.renderer.bodyAtHand(Number(row.event_id));
        if (body) this.launch(row, () => body);
        else unrendered.push(row);
      }
      if (unrendered.length > 0) await this.launchWithEvents(unrendered);
      await this.giveBack(moved);
    }
  }

  /** Sends held rows whose bodies are not at hand, their events read first (one statement for all). */
  private async launchWithEvents(rows: readonly HeldDelivery[]): Promise<void> {
    let events: Map<number, EventForSend>;
    try {
      events = new Map((await eventsForSend(this.db, [...new Set(rows.map((row) => Number(row.event_id)))])).map((e) => [e.eventId, e]));
    } catch (error) {
      // Unsent: their slots are freed, and the leases expire, for any dispatcher to send them.
      for (const row of rows) this.slots.release(Number(row.id));
      throw error;
    }
    for (const row of rows) {
      const event = events.get(Number(row.event_id));
      if (!event) {
        // Events are never deleted while deliveries of theirs are pending; should one be, the lease expires.
        this.slots.release(Number(row.id));
        continue;
      }
      this.launch(row, () => this.options.renderer.payloadOf(event, event.payload));
    }
  }

  /**
   * Leases rows ahead for the destinations whose sends were just answered while their buffer
   * ran low: one statement each, oldest due first among the subscriptions seen sending there.
   * Returns whether any row was added.
   */
  private async topUp(): Promise<boolean> {
    if (this.topUps.size === 0) return false;
    const wanted = [...this.topUps];
    this.topUps.clear();
    let added = false;
    for (const [host, { subscriptions, answerMs }] of wanted) {
      // The last free slot is left to claims: with none to spare, nothing is leased ahead.
      if (this.stopped || this.slots.free <= 1) break;
      if (this.drained.has(host) || this.running(host, answerMs)) continue;
      const limit = this.buffer.roomAtPace(host, answerMs);
      if (limit <= 0) continue;
      const nowMs = this.now();
      const token = `${this.owner}:${randomUUID()}`;
      // The subscriptions whose sends were answered, and the others known to share the destination.
      for (const id of this.slots.subscriptionsOf(host)) {
        if (subscriptions.size >= MAX_TOP_UP_SUBSCRIPTIONS) break;
        subscriptions.add(id);
      }
      // In the transaction of the attempt records waiting (those of the answers that asked for
      // this top-up, usually): one commit for both.
      const lease = { token, now: iso(nowMs), until: iso(nowMs + this.config.leaseMs), limit, subscriptions: [...subscriptions] };
      const leased = await this.settles.alongside((sql) => leaseDueOfSubscriptions(this.db, lease, sql));
      if (leased.length < limit) {
        if (this.drained.size >= MAX_DRAINED_HOSTS) this.drained.clear();
        this.drained.add(host);
      }
      const refused = this.buffer.add(
        leased.map((row) => ({ id: row.id, subscriptionId: row.subscriptionId, host, token, leasedAt: nowMs, due: row.nextAttemptAt })),
      );
      await this.giveBack(refused);
      added ||= leased.length > refused.length;
      const refusedIds = new Set(refused.map((row) => row.id));
      await this.renderAhead(leased.filter((row) => !refusedIds.has(row.id)).map((row) => row.eventId));
    }
    return added;
  }

  /** Whether `host` still holds more than half of what its pace allows: no top-up yet. */
  private running(host: string, answerMs: number): boolean {
    return this.buffer.count(host) > Math.floor(this.buffer.boundFor(answerMs) / 2);
  }

  /**
   * Starts rendering the bodies of the events of rows just leased ahead that have none stored
   * yet, all stored in one transaction (PayloadRenderer.renderAhead): their sends, moments later,
   * find them rendered or under way. Not awaited beyond finding the events; stop() waits for it.
   */
  private async renderAhead(eventIds: readonly number[]): Promise<void> {
    if (eventIds.length === 0) return;
    let events: UnrenderedEvent[];
    try {
      events = await unrenderedEvents(this.db, [...new Set(eventIds)]);
    } catch (error) {
      // Each send renders its own body, as without this.
      console.error('webhook dispatcher:', describeError(error));
      return;
    }
    if (events.length === 0) return;
    // The bodies are stored in the next transaction of attempt records.
    const store = (bodies: readonly { eventId: number; body: string }[]) => this.settles.alongside((sql) => storePayloadsOnce(this.db, bodies, sql));
    const rendering = this.options.renderer.renderAhead(events, store).finally(() => this.sending.delete(rendering));
    this.sending.add(rendering);
  }

  /** A send to `row`'s destination was answered after `answerMs`: if its buffer is low, ask for a top-up. */
  private noteAnswered(row: SendRow, answerMs: number): void {
    if (this.buffer.limits.perHost === 0) return;
    const host = destinationOf(row.uri);
    if (this.drained.has(host)) return;
    let topUp = this.topUps.get(host);
    const slowest = Math.max(answerMs, topUp?.answerMs ?? 0);
    if (topUp) topUp.answerMs = slowest;
    if (this.running(host, slowest)) return;
    if (!topUp) {
      if (this.topUps.size >= MAX_TOP_UP_HOSTS) return;
      this.topUps.set(host, (topUp = { subscriptions: new Set(), answerMs: slowest }));
    }
    if (topUp.subscriptions.size < MAX_TOP_UP_SUBSCRIPTIONS) topUp.subscriptions.add(Number(row.subscription_id));
  }

  /** Hands leases of held rows back (best effort: a lease not given back just expires). */
  private async giveBack(rows: readonly BufferedDelivery[]): Promise<void> {
    const byToken = new Map<string, number[]>();
    for (const row of rows) byToken.set(row.token, [...(byToken.get(row.token) ?? []), row.id]);
    for (const [token, ids] of byToken) {
      await releaseLeases(this.db, ids, token).catch((error: unknown) =>
        console.error('webhook dispatcher:', describeError(error)),
      );
    }
  }

  private async claimIntoFreeSlots(): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
      const free = this.slots.free;
      if (free <= 0) {
        this.backlog = true;
        return;
      }
      const excluded = this.slots.excluded();
      const capped = excluded.length > 0;
      if (this.exhaustedExcluding && excluded.length >= this.exhaustedExcluding.size) {
        const covers = new Set(excluded);
        if ([...this.exhaustedExcluding].every((id) => covers.has(id))) return;
      }
      const claimed = await this.claim(free, this.config.leaseMs, this.slots);
      recordDispatcherLag(claimed.map((row) => row.next_attempt_at), this.now());
      for (const row of claimed) this.launch(row);
      const { heldBack, learned } = this.slots;
      this.noteExhaustion(claimed.length + heldBack < free, excluded);
      // Rows of a subscription or host at its cap may be waiting: its next finished send makes room.
      this.backlog = claimed.length >= free || heldBack > 0 || capped;
      // Rows held back by a cap may hide others further down: look again while that can help.
      if (heldBack === 0 || (claimed.length === 0 && learned === 0)) return;
    }
  }

  /**
   * A claim that found fewer rows than it asked for leased every due row outside the
   * subscriptions it excluded; any claim, short or not, that gave rows back adds their
   * subscriptions, since those rows are due again.
   */
  private noteExhaustion(short: boolean, excluded: readonly number[]): void {
    const givenBack = this.slots.heldBackFrom;
    if (short) this.exhaustedExcluding = new Set([...excluded, ...givenBack]);
    else if (this.exhaustedExcluding) for (const id of givenBack) this.exhaustedExcluding.add(id);
    if (this.exhaustedExcluding && this.exhaustedExcluding.size > MAX_EXHAUSTED) this.exhaustedExcluding = null;
  }

  private launch(row: LeasedDelivery | SendRow, body?: () => Promise<string>): void {
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      this.slots.release(Number(row.id));
      if (this.backlog || this.buffer.size > 0 || this.topUps.size > 0) this.fillSoon();
    };
    const send: Promise<void> = this.deliver(row, free, body)
      .catch((error: unknown) => {
        // Unrecorded: the lease expires and the delivery is sent again.
        console.error('webhook dispatcher:', describeError(error));
      })
      .finally(() => {
        this.sending.delete(send);
        free();
      });
    this.sending.add(send);
  }

  /**
   * Leases up to `limit` due deliveries, oldest first, in one statement. On PostgreSQL the inner
   * SELECT uses FOR UPDATE SKIP LOCKED so concurrent dispatchers take disjoint rows without
   * waiting; on SQLite the single UPDATE is already atomic. With `slots`, subscriptions known
   * to be at a cap are not claimed at all, and any leased row that does not fit after all (a
   * subscription or host met for the first time) is released at once: it costs no attempt
   * and waits on no lease.
   */
  async claim(limit: number, leaseMs = this.config.leaseMs, slots?: DeliverySlots): Promise<LeasedDelivery[]> {
    const nowMs = this.now();
    const nowIso = iso(nowMs);
    const token = `${this.owner}:${randomUUID()}`;
    slots?.beginRound();
    const leased = await leaseDueDeliveries(this.db, {
      token,
      now: nowIso,
      until: iso(nowMs + leaseMs),
      limit,
      excluded: slots?.excluded() ?? [],
    });
    if (leased.length === 0 || !slots) return leased;
    leased.sort((a, b) => String(a.next_attempt_at).localeCompare(String(b.next_attempt_at)) || Number(a.id) - Number(b.id));
    const kept = new Set(slots.take(leased.map((row) => ({ id: Number(row.id), subscriptionId: Number(row.subscription_id), uri: row.uri })), limit));
    const extra = leased.filter((row) => !kept.has(Number(row.id))).map((row) => Number(row.id));
    if (extra.length > 0) {
      // The kept rows are ours whatever happens here; if this fails, the others' leases just expire.
      await releaseLeases(this.db, extra, token).catch((error: unknown) =>
        console.error('webhook dispatcher:', describeError(error)),
      );
    }
    return leased.filter((row) => kept.has(Number(row.id)));
  }

  /**
   * Sends one leased delivery and records the attempt; resolves once the record is written. The
   * body is `bodyOf`'s, or else that of the row's event (stored, or rendered and stored now).
   * `queued`, when given, is called as soon as a delivered attempt's record is queued, before it
   * is written (the slot can take the next send meanwhile); see finish().
   */
  async deliver(row: LeasedDelivery | SendRow, queued?: () => void, bodyOf?: () => Promise<string>): Promise<void> {
    if (!toBool(row.is_active)) {
      // Paused or disabled subscriptions receive nothing; the row stays in the log and can be redelivered.
      await this.finish(row, { state: 'failed' }, null);
      return;
    }
    let outcome: SendOutcome;
    let rendered = false;
    try {
      // A row read without its event comes with where its body is (bodyAtHand, or its event read).
      const body = await (bodyOf ? bodyOf() : 'event' in row ? this.payloadOf(row) : Promise.reject(new Error('no event read for this delivery')));
      rendered = true;
      const timestamp = Math.floor(this.now() / 1000);
      const headers = {
        'webhook-id': row.webhook_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(liveSigningSecrets(secretsOf(row), this.now()), row.webhook_id, timestamp, body),
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

  /** The body of a claimed row's event: the one stored with it, or rendered (and stored) now. */
  private payloadOf(row: LeasedDelivery): Promise<string> {
    return this.options.renderer.payloadOf(
      {
        eventId: Number(row.event_id),
        event: row.event,
        eventType: row.event_type,
        companyId: Number(row.company_id),
        recordId: Number(row.record_id),
        occurredAt: row.occurred_at,
      },
      row.payload,
    );
  }

  private async record(row: SendRow, outcome: SendOutcome, queued?: () => void): Promise<void> {
    const nowMs = this.now();
    const attempts = Number(row.attempt_count) + 1;
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
    if (ok) {
      await this.finish(row, { state: 'delivered', attempt_count: attempts }, attempt, { failing_since: null }, queued);
      return;
    }
    if (outcome.status === 410) {
      // 410 Gone: the receiver says the endpoint is retired; stop at once.
      await this.finish(row, { state: 'failed', attempt_count: attempts }, attempt, { deactivate: true });
      return;
    }
    const honoured = outcome.status === 429 || outcome.status === 503 ? parseRetryAfter(outcome.retryAfter, nowMs) : null;
    const delay = nextAttemptDelayMs(this.config.retryScheduleSeconds, attempts, honoured, this.options.random);
    const failingSince = row.failing_since ?? iso(nowMs);
    const disable = nowMs - Date.parse(failingSince) >= this.config.disableAfterHours * 3600 * 1000;
    const delivery =
      delay === null
        ? { state: 'failed', attempt_count: attempts }
        : { state: 'pending', attempt_count: attempts, next_attempt_at: iso(nowMs + delay) };
    await this.finish(row, delivery, attempt, disable ? { deactivate: true } : { failing_since: failingSince });
  }

  /**
   * Records the attempt and moves the delivery on, in one transaction shared with the other
   * attempts that finished meanwhile (SettleQueue). The delivery update is conditional on still
   * holding the lease: if it expired and another dispatcher took over, that one owns the row
   * now and this result is only kept as an attempt.
   *
   * With `queued` (a delivered attempt sent from a slot), the record may wait a few
   * milliseconds for others to share its transaction, and `queued` frees the slot at once.
   * Until the record is written the row stays leased, so no dispatcher sends it again (a crash
   * meanwhile only lets the lease expire: a resend, never a loss). Failed attempts are written
   * before their slot frees, so the subscription's next send sees a pause or a failing_since
   * they cause. At most MAX_DEFERRED_SETTLES records wait at once; beyond that a delivered
   * send holds its slot until written too.
   */
  private async finish(
    row: SendRow,
    delivery: { state: string; attempt_count?: number; next_attempt_at?: string },
    attempt: AttemptInsert | null,
    subscription: { failing_since?: string | null; deactivate?: boolean } = {},
    queued?: () => void,
  ): Promise<void> {
    const nowMs = this.now();
    const terminal = delivery.state !== 'pending';
    const settlement: Settlement = {
      deliveryId: Number(row.id),
      leaseOwner: row.lease_owner,
      delivery: {
        state: delivery.state,
        attempt_count: delivery.attempt_count,
        next_attempt_at: terminal ? null : (delivery.next_attempt_at ?? null),
        completed_at: terminal ? iso(nowMs) : null,
      },
      attempt,
      subscriptionId: Number(row.subscription_id),
      failingSince: subscription.deactivate ? undefined : subscription.failing_since,
      deactivate: subscription.deactivate
        ? (previous) => nextModifiedTime(new Date(nowMs), previous ?? row.modified_date_time)
        : undefined,
    };
    if (!queued || this.deferredSettles >= MAX_DEFERRED_SETTLES || this.stopped) {
      await this.settles.add(settlement);
      return;
    }
    this.deferredSettles++;
    const written = this.settles.addLater(settlement);
    queued();
    try {
      await written;
    } finally {
      this.deferredSettles--;
    }
  }
}

/** The subscriber's secrets as the signing rule reads them. */
function secretsOf(row: SendRow) {
  return {
    signingSecret: row.signing_secret,
    previousSigningSecret: row.previous_signing_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
  };
}
