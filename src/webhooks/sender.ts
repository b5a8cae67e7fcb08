import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressGuard } from './address-guard.js';
import type { ConnectionPool } from './connection-pool.js';
import { readTarget, type SendTargets } from './send-targets.js';

export interface SendOutcome {
  /** HTTP status, or null when no response arrived (timeout, refused, connection error). */
  status: number | null;
  durationMs: number;
  /** Short, truncated description for the delivery log; never the receiver's whole body. */
  error: string | null;
  retryAfter: string | undefined;
}

const EXCERPT_CHARS = 200;
/** The most of any response body ever read; shiftgate needs only the status and a short excerpt. */
export const READ_LIMIT_BYTES = 4096;

function excerpt(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > EXCERPT_CHARS ? `${clean.slice(0, EXCERPT_CHARS)}…` : clean;
}

/**
 * POSTs one webhook. Redirects are not followed (a 3xx is a failed attempt), every address
 * is checked by the guard before the socket connects, the whole exchange is bounded by
 * `timeoutMs`, and at most READ_LIMIT_BYTES of the answer are read before the socket is
 * destroyed. With a `pool`, a socket whose answer arrived whole (within the limits) goes back to
 * its origin's keep-alive pool; every other ending destroys it. Without one, each send has a
 * connection of its own.
 */
export function postWebhook(
  uri: string,
  headers: Record<string, string>,
  payload: string,
  options: { timeoutMs: number; guard: AddressGuard; pool?: ConnectionPool; targets?: SendTargets },
): Promise<SendOutcome> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, retryAfter?: string): SendOutcome => ({
    status,
    durationMs: Math.round(performance.now() - started),
    error,
    retryAfter,
  });
  // Read once per URI when the caller keeps the readings (the dispatcher), else here and now.
  const target = options.targets && options.targets.guard === options.guard ? options.targets.targetOf(uri) : readTarget(uri, options.guard);
  if ('refused' in target) return Promise.resolve(done(null, target.refused));
  return new Promise((resolve) => {
    let settled = false;
    let status: number | null = null;
    let retryAfter: string | undefined;
    const received: Buffer[] = [];
    let receivedBytes = 0;
    const outcomeOf = (problem: string | null): SendOutcome => {
      if (status === null) return done(null, excerpt(problem ?? 'no response'));
      // A 2xx status is the receiver's acceptance; a body that never ends does not undo it.
      if (status >= 200 && status < 300) return done(status, problem);
      const reason = status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}`;
      const text = excerpt(Buffer.concat(received).toString('utf8'));
      return done(status, text ? `${reason}: ${text}` : reason, retryAfter);
    };
    const send = target.https ? httpsRequest : httpRequest;
    const req = send(
      {
        ...target.request,
        method: 'POST',
        agent: options.pool?.agentForOrigin(target.origin, target.https) ?? false,
        lookup: options.guard.lookup as never,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'user-agent': 'shiftgate-webhooks/1' },
      },
      (res) => {
        status = res.statusCode ?? 0;
        retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined;
        res.on('data', (chunk: Buffer) => {
          received.push(chunk);
          receivedBytes += chunk.length;
          if (receivedBytes >= READ_LIMIT_BYTES) conclude(null);
        });
        // The whole answer was read: the socket is clean and may carry the next request.
        res.on('end', () => conclude(null, true));
        res.on('error', () => conclude('connection closed before the response ended'));
        res.on('close', () => conclude('connection closed before the response ended'));
      },
    );
    // One deadline for the whole exchange: connecting, the request, the status line, the body.
    const timer = setTimeout(() => {
      conclude(status === null ? `timed out after ${options.timeoutMs} ms` : `response body not finished within ${options.timeoutMs} ms`);
    }, options.timeoutMs);
    /**
     * Ends the exchange once: the outcome is what has arrived so far. Unless the answer ended
     * cleanly, the socket is destroyed whatever state it is in, so nothing a receiver does can
     * keep it open; a clean one goes back to the pool, when there is one.
     */
    function conclude(problem: string | null, complete = false): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!complete || !options.pool) req.destroy();
      resolve(outcomeOf(problem));
    }
    // Defence in depth: the address actually connected to must pass the guard as well.
    // A kept-alive socket was checked when it connected; listening on it again for every request
    // it carries would only pile up listeners that never fire.
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      socket.once('connect', () => {
        const problem = socket.remoteAddress ? options.guard.problem(socket.remoteAddress) : null;
        if (problem) req.destroy(new Error(`refused: ${problem}`));
      });
    });
    req.on('error', (error) => conclude(error.message));
    req.end(payload);
  });
}
