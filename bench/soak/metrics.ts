/** What the server's own /metrics says: responses by route and status, and the dispatcher's lag. */
export interface ServerMetrics {
  /** "METHOD route" → status → count. */
  responses: Map<string, Record<string, number>>;
  dispatcherLagSeconds: number | null;
}

function labels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)) out[match[1] ?? ''] = match[2] ?? '';
  return out;
}

export async function scrapeMetrics(baseUrl: string): Promise<ServerMetrics | null> {
  let text: string;
  try {
    const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
    if (res.status !== 200) return null;
    text = await res.text();
  } catch {
    return null;
  }
  const responses = new Map<string, Record<string, number>>();
  let dispatcherLagSeconds: number | null = null;
  for (const line of text.split('\n')) {
    const requests = /^shiftgate_http_requests_total\{([^}]*)\}\s+([0-9.e+]+)$/.exec(line);
    if (requests) {
      const l = labels(requests[1] ?? '');
      const key = `${l.method ?? '?'} ${l.route ?? '?'}`;
      const byStatus = responses.get(key) ?? {};
      byStatus[l.status ?? '?'] = (byStatus[l.status ?? '?'] ?? 0) + Number(requests[2]);
      responses.set(key, byStatus);
      continue;
    }
    const lag = /^shiftgate_webhook_dispatcher_lag_seconds(?:\{[^}]*\})?\s+([0-9.e+-]+)$/.exec(line);
    if (lag) dispatcherLagSeconds = Number(lag[1]);
  }
  return { responses, dispatcherLagSeconds };
}

/** Server-side 5xx answers per route. */
export function serverErrorsByRoute(metrics: ServerMetrics): Map<string, number> {
  const out = new Map<string, number>();
  for (const [route, byStatus] of metrics.responses) {
    const count = Object.entries(byStatus)
      .filter(([status]) => status.startsWith('5'))
      .reduce((sum, [, n]) => sum + n, 0);
    if (count > 0) out.set(route, count);
  }
  return out;
}
