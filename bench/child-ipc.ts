import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Messages between the orchestrator and a server child (over the fork IPC channel). */
export type ParentMessage = { type: 'stats'; seq: number } | { type: 'stop' };

export interface ServerStats {
  /** process.cpuUsage() of the server process, microseconds. */
  userMicros: number;
  systemMicros: number;
  rssBytes: number;
  /** SQL statements issued so far, counted at the database layer. */
  sqlStatements: number;
  /** Responses the server finished so far: the denominator for statements per request. */
  requestsServed: number;
}

export type ChildMessage =
  | { type: 'ready'; port: number }
  | { type: 'stats'; seq: number; stats: ServerStats }
  | { type: 'failed'; message: string };

/**
 * The child side: listens on an ephemeral loopback port, reports it, answers stats
 * requests, and exits on `stop` (which also lets --cpu-prof write its profile).
 */
export async function serveAsChild(server: Server, sqlStatements: () => number, close: () => Promise<void> = async () => {}): Promise<void> {
  const send = (message: ChildMessage) => process.send?.(message);
  // Counted where the server finishes responses, not where the load generator counts them:
  // requests in flight when a round starts or ends are served (and query) but not counted there.
  let requestsServed = 0;
  server.on('request', (_req, res) => res.once('finish', () => requestsServed++));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stats') {
      const cpu = process.cpuUsage();
      send({
        type: 'stats',
        seq: message.seq,
        stats: { userMicros: cpu.user, systemMicros: cpu.system, rssBytes: process.memoryUsage.rss(), sqlStatements: sqlStatements(), requestsServed },
      });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      server.close();
      close()
        .catch(() => {})
        .finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port: (server.address() as AddressInfo).port });
}

/** Reports a startup failure to the parent instead of dying silently. */
export function failChild(error: unknown): never {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.send?.({ type: 'failed', message } satisfies ChildMessage);
  console.error(message);
  process.exit(1);
}

/** `--name value` from the child's argv. */
export function argument(name: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? process.argv[index + 1] : undefined;
  if (value === undefined) failChild(new Error(`missing --${name}`));
  return value;
}
