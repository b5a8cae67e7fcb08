import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase } from '../../src/shared/db/knex.js';
import { loadDemoData } from '../../src/cli/demo-data.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { linesOf, runCli, startServe } from '../support/cli-process.js';

describe('shiftgate serve with NODE_ENV=production', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  const production = () => ({ ...database.env, NODE_ENV: 'production', PORT: '0', SUBSCRIPTION_KEYS: 'a-real-subscription-key' });

  /** The refusal: exit 1, one line on stderr matching `cause`, nothing served. */
  async function expectRefusal(args: string[], env: Record<string, string | undefined>, cause: RegExp) {
    const run = await runCli(['serve', ...args], env);
    expect(run.exited, 'the process ended on its own').toBe(true);
    expect(run.code, run.stderr).toBe(1);
    const lines = linesOf(run.stderr);
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(cause);
    expect(run.stdout).not.toContain('listening');
  }

  it('refuses to start when SUBSCRIPTION_KEYS is unset', async () => {
    await expectRefusal([], { ...production(), SUBSCRIPTION_KEYS: undefined }, /^shiftgate: .*SUBSCRIPTION_KEYS/);
  });

  it('refuses --demo', async () => {
    await expectRefusal(['--demo'], production(), /^shiftgate: .*--demo/);
  });

  it('refuses while a demo API key is active, and starts once they are revoked', async () => {
    const db = openDatabase(loadConfig(database.env));
    try {
      await migrateLatest(db);
      await loadDemoData(db);
    } finally {
      await db.destroy();
    }
    await expectRefusal([], production(), /^shiftgate: .*demo API key/);

    const revoked = await runCli(['keys', 'list', '--json'], database.env);
    const ids = (JSON.parse(revoked.stdout) as { id: number }[]).map((key) => String(key.id));
    for (const id of ids) expect((await runCli(['keys', 'revoke', id], database.env)).code).toBe(0);

    const served = await startServe([], production());
    expect(await served.stop()).toBe(0);
    expect(served.stdout()).not.toMatch(/demo/i);
  });

  it('starts on an empty database with SUBSCRIPTION_KEYS set, without a warning', async () => {
    const served = await startServe([], production());
    expect(await served.stop()).toBe(0);
    expect(served.stderr()).toBe('');
  });
});
