import type { Credentials } from './credentials.js';
import { COMPANIES, type CompanyId } from './data.js';
import { sleep } from './time.js';

const QUERY = 'subscription { events { type timestamp data } }';
const HEADERS_TIMEOUT_MS = 10_000;

/** The same key for a streamed event and its row in the events table. */
export function eventKey(type: string, occurredAtMs: number, recordId: number): string {
  return `${type}|${occurredAtMs}|${recordId}`;
}

function liveEventKey(frame: string): string | null {
  const data = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .join('');
  try {
    const event = (JSON.parse(data) as { data?: { events?: { type?: unknown; timestamp?: unknown; data?: Record<string, unknown> } } }).data?.events;
    const recordId = event?.data?.timesheetId ?? event?.data?.securityLicenseId;
    if (typeof event?.type !== 'string' || typeof event.timestamp !== 'string' || typeof recordId !== 'number') return null;
    return eventKey(event.type, Date.parse(event.timestamp), recordId);
  } catch {
    return null;
  }
}

/** One live-event stream as the client saw it. */
export interface StreamRecord {
  companyId: CompanyId;
  /** When the 200 and its headers arrived (the stream was open from then). */
  openedAt: number;
  closedAt: number | null;
  events: number;
  /** `type|occurredAt ms|record id` of every event received, to compare with the events table. */
  received: Set<string>;
  /** The server ended it (or it broke) before the client closed it. */
  endedEarly: string | null;
}

export interface StreamStats {
  attempts: number;
  /** Answers other than 200 text/event-stream, or no answer within the time-out. */
  refused: number;
  samples: string[];
  records: StreamRecord[];
}


/**
 * Keeps a couple of GraphQL subscriptions open over server-sent events, each for a few
 * seconds, then closes it and opens the next, alternating the companies.
 */
export class LiveStreams {
  readonly stats: StreamStats = { attempts: 0, refused: 0, samples: [], records: [] };
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly open = new Set<AbortController>();

  constructor(
    private readonly baseUrl: string,
    private readonly subscriptionKey: string,
    private readonly credentials: Credentials,
    private readonly options: { parallel: number; minOpenMs: number; maxOpenMs: number },
  ) {}

  start(): void {
    this.stopping = false;
    for (let i = 0; i < this.options.parallel; i++) this.loops.push(this.loop(i));
  }

  /** Closes every open stream and waits for the loops to end. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const controller of this.open) controller.abort();
    await Promise.all(this.loops.splice(0));
  }

  private note(problem: string): void {
    if (this.stats.samples.length < 3) this.stats.samples.push(problem.slice(0, 300));
  }

  private async loop(index: number): Promise<void> {
    let turn = index;
    while (!this.stopping) {
      const companyId = COMPANIES[turn++ % COMPANIES.length] ?? 1;
      const holdMs = this.options.minOpenMs + Math.random() * (this.options.maxOpenMs - this.options.minOpenMs);
      await this.one(companyId, holdMs);
      await sleep(200 + Math.random() * 500);
    }
  }

  private async one(companyId: CompanyId, holdMs: number): Promise<void> {
    this.stats.attempts++;
    const controller = new AbortController();
    this.open.add(controller);
    const headersTimer = setTimeout(() => controller.abort(), HEADERS_TIMEOUT_MS);
    let closedByUs = false;
    let record: StreamRecord | null = null;
    try {
      const res = await fetch(`${this.baseUrl}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          authorization: `Bearer ${this.credentials.token(companyId, 'developer')}`,
          'external-gh-apim-sub-key': this.subscriptionKey,
        },
        body: JSON.stringify({ query: QUERY }),
        signal: controller.signal,
      });
      clearTimeout(headersTimer);
      if (res.status !== 200 || !/text\/event-stream/.test(res.headers.get('content-type') ?? '') || !res.body) {
        this.stats.refused++;
        this.note(`stream refused: ${res.status} ${(await res.text()).slice(0, 200)}`);
        return;
      }
      const opened: StreamRecord = { companyId, openedAt: Date.now(), closedAt: null, events: 0, received: new Set(), endedEarly: null };
      record = opened;
      this.stats.records.push(opened);
      const closeTimer = setTimeout(() => {
        closedByUs = true;
        controller.abort();
      }, holdMs);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (/^event: next$/m.test(frame)) {
              opened.events++;
              const key = liveEventKey(frame);
              if (key !== null) opened.received.add(key);
            }
            else if (/^event: complete$/m.test(frame)) opened.endedEarly ??= 'the server completed the stream';
          }
          // Frames are small; a buffer this large means the stream is not speaking SSE.
          if (buffer.length > 4 * 1024 * 1024) throw new Error('unterminated event frame');
        }
        if (!closedByUs) opened.endedEarly ??= 'the server ended the stream';
      } finally {
        clearTimeout(closeTimer);
      }
    } catch (error) {
      clearTimeout(headersTimer);
      if (record === null) {
        this.stats.refused++;
        this.note(`stream failed to open: ${error instanceof Error ? error.message : String(error)}`);
      } else if (!closedByUs && !this.stopping) {
        record.endedEarly ??= error instanceof Error ? error.message : String(error);
      }
    } finally {
      if (record) record.closedAt = Date.now();
      this.open.delete(controller);
    }
    if (record?.endedEarly) this.note(`stream of company ${companyId} ended early: ${record.endedEarly}`);
  }
}
