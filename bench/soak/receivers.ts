import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type ReceiverKind = 'healthy' | 'flaky' | 'hanging';

const MAX_BODY_BYTES = 1024 * 1024;
/** Beyond this many held responses the hanging receiver answers 204: a run must not exhaust descriptors. */
const MAX_HELD = 1000;

/** What one receiver saw; a delivery counts as acknowledged once a 2xx status line was sent for it. */
export interface ReceiverStats {
  kind: ReceiverKind;
  requests: number;
  /** webhook-id → the `type` of its body, for every id answered with 2xx at least once. */
  acknowledged: Map<string, string>;
  /** 2xx answers for an id already acknowledged (at-least-once makes some expected). */
  duplicates: number;
  badSignatures: number;
  /** Answers by status, plus "held" for requests never answered. */
  answers: Record<string, number>;
  /** Responses kept open right now (hanging behaviour); each pins a socket in the server unless it lets go. */
  openResponses: number;
}

/**
 * A webhook receiver on 127.0.0.1. Until `recover()` it misbehaves as its kind says:
 * healthy answers 204; flaky answers 500 or 429 (Retry-After: 1) half the time; hanging
 * alternates between never answering and sending 200 with a body it never ends. After
 * `recover()` every kind answers 204, but responses already held stay open: whether the
 * gateway lets go of those sockets is part of what the run measures.
 */
export class Receiver {
  readonly stats: ReceiverStats;
  private recovered = false;
  private hangingTurn = 0;
  private readonly held = new Set<ServerResponse>();

  private constructor(
    readonly kind: ReceiverKind,
    private readonly server: Server,
    readonly url: string,
    private readonly verifiers: Webhook[],
  ) {
    this.stats = { kind, requests: 0, acknowledged: new Map(), duplicates: 0, badSignatures: 0, answers: {}, openResponses: 0 };
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.handle(req, res));
  }

  static async start(kind: ReceiverKind, signingSecrets: readonly string[]): Promise<Receiver> {
    const server = createServer();
    // A receiver is loopback-only and short-lived, but a request still has to arrive in time.
    server.requestTimeout = 30_000;
    server.headersTimeout = 10_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new Receiver(kind, server, `http://127.0.0.1:${port}`, signingSecrets.map((s) => new Webhook(s)));
  }

  /** From now on, answer every delivery with 204. */
  recover(): void {
    this.recovered = true;
  }

  /** From now on, behave as the kind says. */
  misbehave(): void {
    this.recovered = false;
  }

  private count(answer: string): void {
    this.stats.answers[answer] = (this.stats.answers[answer] ?? 0) + 1;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.stats.requests++;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => this.answer(req, res, Buffer.concat(chunks).toString('utf8')));
  }

  private verify(req: IncomingMessage, body: string): string | null {
    const headers = {
      'webhook-id': String(req.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
    };
    for (const verifier of this.verifiers) {
      try {
        const payload = verifier.verify(body, headers) as { type?: unknown };
        return typeof payload.type === 'string' ? payload.type : '';
      } catch {
        // Not this subscriber's secret (or not valid at all): try the next one.
      }
    }
    return null;
  }

  private acknowledge(webhookId: string, type: string): void {
    if (this.stats.acknowledged.has(webhookId)) this.stats.duplicates++;
    else this.stats.acknowledged.set(webhookId, type);
  }

  private hold(res: ServerResponse): void {
    this.held.add(res);
    this.stats.openResponses = this.held.size;
    res.on('close', () => {
      this.held.delete(res);
      this.stats.openResponses = this.held.size;
    });
  }

  private answer(req: IncomingMessage, res: ServerResponse, body: string): void {
    const webhookId = String(req.headers['webhook-id'] ?? '');
    const type = this.verify(req, body);
    if (type === null) {
      this.stats.badSignatures++;
      this.count('401');
      res.writeHead(401).end();
      return;
    }
    if (this.recovered || this.kind === 'healthy') {
      this.count('204');
      this.acknowledge(webhookId, type);
      res.writeHead(204).end();
      return;
    }
    if (this.kind === 'flaky') {
      const roll = Math.random();
      if (roll < 0.25) {
        this.count('500');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('flaky receiver: try again');
      } else if (roll < 0.5) {
        this.count('429');
        res.writeHead(429, { 'retry-after': '1' }).end();
      } else {
        this.count('200');
        this.acknowledge(webhookId, type);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }
      return;
    }
    if (this.held.size >= MAX_HELD) {
      this.count('204-over-held-limit');
      this.acknowledge(webhookId, type);
      res.writeHead(204).end();
      return;
    }
    this.hangingTurn++;
    if (this.hangingTurn % 2 === 1) {
      this.count('held');
      this.hold(res);
      return;
    }
    // The status line says 200, so the delivery is acknowledged; the body never ends.
    this.count('200-unended');
    this.acknowledge(webhookId, type);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"ok":');
    this.hold(res);
  }

  /** Ends every held response and stops listening. */
  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
