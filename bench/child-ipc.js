// The child side of the orchestrator's fork IPC (types in child-ipc.d.ts). Plain JavaScript:
// the gateway child imports it under plain node, the TypeScript children through tsx.

/**
 * Listens on an ephemeral loopback port, reports it, answers stats requests, and exits on
 * `stop` (which also lets --cpu-prof write its profile).
 */
export async function serveAsChild(server, sqlStatements, close = async () => {}) {
  const send = (message) => process.send?.(message);
  // Counted where the server finishes responses, not where the load generator counts them:
  // requests in flight when a round starts or ends are served (and query) but not counted there.
  let requestsServed = 0;
  server.on('request', (_req, res) => res.once('finish', () => requestsServed++));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (message) => {
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
  send({ type: 'ready', port: server.address().port });
}

/** Reports a startup failure to the parent instead of dying silently. */
export function failChild(error) {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.send?.({ type: 'failed', message });
  console.error(message);
  process.exit(1);
}

/** `--name value` from the child's argv. */
export function argument(name) {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? process.argv[index + 1] : undefined;
  if (value === undefined) failChild(new Error(`missing --${name}`));
  return value;
}
