import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/shared/db/knex.js';
import { DEMO_API_KEYS } from '../../src/cli/demo-data.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { linesOf, startServe } from '../support/cli-process.js';

async function count(database: TestDatabase, table: string): Promise<number> {
  const db = openDatabase(loadConfig(database.env));
  try {
    const [row] = (await db(table).count({ n: '*' })) as { n: number | string }[];
    return Number(row?.n);
  } finally {
    await db.destroy();
  }
}

describe('shiftgate serve and the demo data set', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  it('never writes demo data without --demo: an empty database stays empty', async () => {
    const served = await startServe([], { ...database.env, SUBSCRIPTION_KEYS: 'real-key' });
    expect(await served.stop()).toBe(0);
    expect(served.stdout()).not.toMatch(/demo/i);
    expect(await count(database, 'companies')).toBe(0);
    expect(await count(database, 'api_keys')).toBe(0);
  });

  it('--demo loads the demo data set into an empty database and prints the credentials', async () => {
    const served = await startServe(['--demo'], database.env);
    expect(await served.stop()).toBe(0);
    const out = served.stdout();
    expect(out).toContain('Empty database: loaded the demo data set.');
    expect(out).toContain('Demo subscription key (external-gh-apim-sub-key): demo-subscription-key');
    expect(out).toContain(`Demo API key (KeyType=developer): ${DEMO_API_KEYS.developer}`);
    expect(out).toContain(`Demo API key (KeyType=timesheet): ${DEMO_API_KEYS.timesheet}`);
    expect(await count(database, 'companies')).toBe(2);
    expect(await count(database, 'api_keys')).toBe(2);
  });

  it('--demo leaves a database that already holds data alone', async () => {
    await (await startServe(['--demo'], database.env)).stop();
    const again = await startServe(['--demo'], database.env);
    expect(await again.stop()).toBe(0);
    expect(again.stdout()).not.toContain('Empty database');
    expect(await count(database, 'api_keys')).toBe(2);
  });

  it('warns on stderr when SUBSCRIPTION_KEYS is unset and the demo subscription key is accepted', async () => {
    const served = await startServe([], database.env);
    expect(await served.stop()).toBe(0);
    expect(linesOf(served.stderr()).filter((line) => /SUBSCRIPTION_KEYS/.test(line))).toHaveLength(1);
    expect(served.stdout()).toContain('Demo subscription key (external-gh-apim-sub-key): demo-subscription-key');
  });

  it('does not warn when SUBSCRIPTION_KEYS is set', async () => {
    const served = await startServe([], { ...database.env, SUBSCRIPTION_KEYS: 'real-key' });
    expect(await served.stop()).toBe(0);
    expect(served.stderr()).not.toMatch(/SUBSCRIPTION_KEYS/);
  });

  it('--demo lets any origin call the APIs while CORS_ORIGINS is unset, and CORS_ORIGINS narrows it', async () => {
    const preflight = (port: number, origin: string) =>
      fetch(`http://127.0.0.1:${port}/api/external/token/request`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const open = await startServe(['--demo'], database.env);
    try {
      const res = await preflight(open.port, 'https://anywhere.example.org');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      expect(await open.stop()).toBe(0);
    }
    const narrowed = await startServe(['--demo'], { ...database.env, CORS_ORIGINS: 'http://localhost:5173' });
    try {
      expect((await preflight(narrowed.port, 'https://anywhere.example.org')).headers.get('access-control-allow-origin')).toBeNull();
      expect((await preflight(narrowed.port, 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    } finally {
      expect(await narrowed.stop()).toBe(0);
    }
    const plain = await startServe([], database.env);
    try {
      expect((await preflight(plain.port, 'https://anywhere.example.org')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      expect(await plain.stop()).toBe(0);
    }
  });
});
