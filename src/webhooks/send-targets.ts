import { isIP } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { AddressGuard } from './address-guard.js';
import { setBounded } from '../shared/bounded-map.js';

/** Where one delivery URI sends to, worked out once: what node's request needs, and its origin. */
export interface SendTarget {
  https: boolean;
  /** Scheme, host and port (lower case, originOf): the connection pool keeps sockets per origin. */
  origin: string;
  /** node's own reading of the URL (urlToHttpOptions): each send's host, port, path and credentials. */
  request: Readonly<ReturnType<typeof urlToHttpOptions>>;
}

/** Why nothing is sent to a URI at all: a malformed one, another scheme, or a literal address the guard refuses. */
export interface RefusedTarget {
  refused: string;
}

/** A URL's origin as the connection pool keys its sockets: scheme, and host and port in lower case. */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host.toLowerCase()}`;
}

/**
 * Reads a delivery URI the way every send of it would: parsed, only http and https, and a
 * literal address checked by the guard (node connects to one without calling `lookup`, so that
 * check cannot wait for the connection). Names are not resolved here: they are checked on every
 * connection, by the guard's `lookup` and again on connect.
 */
export function readTarget(uri: string, guard: AddressGuard): SendTarget | RefusedTarget {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { refused: 'invalid uri' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: 'only http and https are allowed' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    const problem = guard.problem(host);
    if (problem) return { refused: `refused: ${problem}` };
  }
  return { https: url.protocol === 'https:', origin: originOf(url), request: Object.freeze(urlToHttpOptions(url)) };
}

/**
 * The targets of the URIs sent to lately, each read once (readTarget) instead of on every send.
 * What a URI reads as depends only on the URI and on the guard's ranges, which never change for
 * one guard, so a remembered reading is the one a send would make. Bounded: beyond `capacity`
 * URIs the least recently used one is forgotten (and read again if it comes back).
 */
export class SendTargets {
  private readonly known = new Map<string, SendTarget | RefusedTarget>();

  constructor(
    readonly guard: AddressGuard,
    private readonly capacity = 1000,
  ) {}

  get size(): number {
    return this.known.size;
  }

  targetOf(uri: string): SendTarget | RefusedTarget {
    const known = this.known.get(uri);
    if (known !== undefined) {
      // Most recently used last, so the first entry is the one to forget.
      this.known.delete(uri);
      this.known.set(uri, known);
      return known;
    }
    const target = readTarget(uri, this.guard);
    setBounded(this.known, uri, target, this.capacity);
    return target;
  }
}
