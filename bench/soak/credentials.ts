import type { ApiClient } from './http-client.js';
import { COMPANIES, type CompanyId } from './data.js';
import { runCli } from './server-process.js';

export type KeyKind = 'developer' | 'timesheet';

/** API keys made with `shiftgate keys create --json`, and bearer tokens for them, refreshed now and then. */
export class Credentials {
  private readonly tokens = new Map<string, string>();

  private constructor(private readonly apiKeys: Map<string, string>) {}

  private static slot(companyId: CompanyId, kind: KeyKind): string {
    return `${companyId}:${kind}`;
  }

  /** One developer and one timesheet key per company, created by the CLI against the run's database. */
  static async create(env: Record<string, string>): Promise<Credentials> {
    const keys = new Map<string, string>();
    // One at a time: each child migrates (a no-op) before writing, and they share one database.
    for (const companyId of COMPANIES) {
      for (const kind of ['developer', 'timesheet'] as const) {
        const result = await runCli(['keys', 'create', '--type', kind, '--company', String(companyId), '--name', `soak ${kind}`, '--json'], env);
        const apiKey = result.code === 0 ? (JSON.parse(result.stdout) as { apiKey?: unknown }).apiKey : undefined;
        if (typeof apiKey !== 'string') throw new Error(`shiftgate keys create failed (${result.code}): ${result.stderr.trim()}`);
        keys.set(Credentials.slot(companyId, kind), apiKey);
      }
    }
    return new Credentials(keys);
  }

  async refresh(client: ApiClient): Promise<void> {
    for (const [slot, apiKey] of this.apiKeys) this.tokens.set(slot, await client.token(apiKey));
  }

  token(companyId: CompanyId, kind: KeyKind): string {
    const token = this.tokens.get(Credentials.slot(companyId, kind));
    if (token === undefined) throw new Error('tokens were not fetched');
    return token;
  }
}
