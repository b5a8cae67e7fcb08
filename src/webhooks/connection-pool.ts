import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { AddressGuard } from './address-guard.js';

export interface PoolLimits {
  /** Sockets one origin may hold, busy and idle together (the per-host send cap is the natural value). */
  socketsPerOrigin: number;
  /** An idle keep-alive socket is closed after this long. */
  idleMs: number;
  /** Origins with an agent at once; the least recently used one is closed to make room. */
  origins: number;
}

type OriginAgent = HttpAgent | HttpsAgent;

/**
 * Keep-alive connections for webhook sends, one agent per origin (scheme, host and port), so a
 * socket is only ever reused for the origin it was opened to. Every socket an agent opens is
 * checked by the address guard twice: its name is resolved through the guard's `lookup`, and the
 * address it actually connected to is checked again before the request is written. Bounded
 * three ways: sockets per origin, an idle time-out per socket, and the number of origins.
 */
export class ConnectionPool {
  private readonly agents = new Map<string, OriginAgent>();
  private closed = false;

  constructor(
    private readonly guard: AddressGuard,
    private readonly limits: PoolLimits,
  ) {}

  /** The agent for `url`'s origin, created on first use; null once the pool is closed. */
  agentFor(url: URL): OriginAgent | null {
    return this.agentForOrigin(`${url.protocol}//${url.host.toLowerCase()}`, url.protocol === 'https:');
  }

  /** The agent for an origin (scheme, host and port, lower case, as agentFor spells it), created on first use; null once closed. */
  agentForOrigin(origin: string, https: boolean): OriginAgent | null {
    if (this.closed) return null;
    let agent = this.agents.get(origin);
    if (agent) {
      // Most recently used last, so the first entry is the one to evict.
      this.agents.delete(origin);
      this.agents.set(origin, agent);
      return agent;
    }
    if (this.agents.size >= this.limits.origins) {
      const oldest = this.agents.entries().next();
      if (!oldest.done) {
        this.agents.delete(oldest.value[0]);
        // Requests in flight on the evicted agent finish; its sockets are not kept afterwards.
        oldest.value[1].destroy();
      }
    }
    agent = this.create(https);
    this.agents.set(origin, agent);
    return agent;
  }

  /** Origins with an agent now (for tests and metrics). */
  get size(): number {
    return this.agents.size;
  }

  /** Closes every socket and refuses new agents: sends after this use a connection of their own. */
  close(): void {
    this.closed = true;
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private create(https: boolean): OriginAgent {
    const options: AgentOptions = {
      keepAlive: true,
      maxSockets: this.limits.socketsPerOrigin,
      maxTotalSockets: this.limits.socketsPerOrigin,
      maxFreeSockets: this.limits.socketsPerOrigin,
      timeout: this.limits.idleMs,
      scheduling: 'lifo',
    };
    const agent = https ? new HttpsAgent(options) : new HttpAgent(options);
    const guard = this.guard;
    const open = agent.createConnection.bind(agent) as (options: object, callback?: unknown) => Socket;
    // Every new socket resolves through the guard and is checked again once connected.
    agent.createConnection = ((connectOptions: object, callback?: unknown) => {
      const socket = open({ ...connectOptions, lookup: guard.lookup }, callback);
      socket.once('connect', () => {
        const problem = socket.remoteAddress ? guard.problem(socket.remoteAddress) : 'no remote address';
        if (problem) socket.destroy(new Error(`refused: ${problem}`));
      });
      return socket;
    }) as typeof agent.createConnection;
    return agent;
  }
}
