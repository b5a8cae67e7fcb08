import type { Check } from './checks.js';
import type { RouteTally } from './http-client.js';

/** Left-aligned first column, right-aligned numbers. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  return [line(cells[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function routeTable(tally: RouteTally): string {
  const rows = [...tally.routes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, s]) => {
      const of = (prefix: string) => Object.entries(s.statuses).filter(([code]) => code.startsWith(prefix)).reduce((n, [, c]) => n + c, 0);
      return [route, s.requests, of('2'), of('4'), of('5'), s.internalErrors, s.transportErrors, s.badBodies, s.maxMs];
    });
  return table(['route', 'requests', '2xx', '4xx', '5xx', 'GraphQL internal', 'no answer', 'bad body', 'max ms'], rows);
}

export function checkLines(checks: readonly Check[]): string {
  return checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`).join('\n');
}
