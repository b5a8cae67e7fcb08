import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { AddressGuard } from './address-guard.js';

export interface SendOutcome {
  /** HTTP status, or null when no response arrived (timeout, refused, connection error). */
  status: number | null;
  durationMs: number;
  /** Short, truncated description for the delivery log; never the receiver's whole body. */
  error: string | null;
  retryAfter: string | undefined;
}

const EXCERPT_CHARS = 200;
const READ_LIMIT_BYTES = 1024;

function excerpt(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > EXCERPT_CHARS ? `${clean.slice(0, EXCERPT_CHARS)}…` : clean;
}

/** Reads at most a few hundred bytes of a failed response, then drops the rest. */
function readExcerpt(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      res.removeAllListeners('data');
      resolve(excerpt(Buffer.concat(chunks).toString('utf8')));
    };
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= READ_LIMIT_BYTES) {
        finish();
        res.destroy();
      }
    });
    res.on('end', finish);
    res.on('error', finish);
    res.on('close', finish);
  });
}

/**
 * POSTs one webhook. Redirects are not followed (a 3xx is a failed attempt), every address
 * is checked by the guard before the socket connects, and the whole exchange is bounded by
 * `timeoutMs`.
 */
export function postWebhook(
  uri: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; guard: AddressGuard },
): Promise<SendOutcome> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, retryAfter?: string): SendOutcome => ({
    status,
    durationMs: Math.round(performance.now() - started),
    error,
    retryAfter,
  });
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return Promise.resolve(done(null, 'invalid uri'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(done(null, 'only http and https are allowed'));
  // Node connects to literal addresses without calling `lookup`, so check those here.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    const problem = options.guard.problem(host);
    if (problem) return Promise.resolve(done(null, `refused: ${problem}`));
  }
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: options.guard.lookup as never,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'shiftgate-webhooks/1' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined;
        if (status >= 200 && status < 300) {
          res.resume();
          settle(done(status, null));
          return;
        }
        const reason = status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}`;
        void readExcerpt(res).then((text) => settle(done(status, text ? `${reason}: ${text}` : reason, retryAfter)));
      },
    );
    // Defence in depth: the address actually connected to must pass the guard as well.
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        const problem = socket.remoteAddress ? options.guard.problem(socket.remoteAddress) : null;
        if (problem) req.destroy(new Error(`refused: ${problem}`));
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on('error', (error) => settle(done(null, excerpt(error.message))));
    req.end(body);
  });
}
