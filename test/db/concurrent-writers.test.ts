import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../support/backend.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const BIN = resolve(import.meta.dirname, '../../bin/shiftgate.js');
const TIMESHEETS = 4000;

/** A tenant of its own with enough timesheets that each import holds the write lock a while. */
function importFile(status: string) {
  const timesheets = [];
  for (let i = 1; i <= TIMESHEETS; i++) timesheets.push({ timesheetId: 700_000 + i, siteId: 7000, employeeId: 70_001, status });
  return {
    companies: [{ id: 70, name: 'Import Co' }],
    customers: [{ id: 700, companyId: 70, name: 'Import Customer' }],
    sites: [{ id: 7000, customerId: 700, name: 'Import Site' }],
    staff: [{ id: 70_001, companyId: 70, firstName: 'Imp' }],
    timesheets,
  };
}

function runImport(env: Record<string, string>, file: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, 'import', file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return new Promise((done) => child.on('exit', (code) => done({ code, output: output.join('') })));
}

describe('API writes while another process imports into the same database', () => {
  let t: TestApp;
  let token: string;
  let subscriptionId: number;

  beforeAll(async () => {
    // The dispatcher's polls write too, and in this process a write waiting for the lock
    // holds up every request until it gets it: slow polls keep the requests' own timing.
    t = await startTestApp({ env: { WEBHOOK_POLL_INTERVAL_MS: '60000' } });
    token = await t.token({ type: 'developer', companyId: 1 });
    const created = await t.request('POST', '/api/webhook/subscriptions', {
      token,
      body: { subscriberId: 301, uri: 'https://hooks.example.com/during-import/0' },
    });
    expect(created.status).toBe(201);
    subscriptionId = created.body.data.id as number;
  });
  afterAll(() => t.close());

  it('all succeed: none is refused because the import holds the lock', async () => {
    // Each run ends with every timesheet Approved. PostgreSQL has no lock to collide on, and its
    // imports are slower: two runs there.
    const statuses = onPostgres() ? ['Pending', 'Approved'] : ['Pending', 'Approved', 'Pending', 'Approved'];
    const files = statuses.map((status, i) => {
      const path = join(t.database.dir, `import-${i}.json`);
      writeFileSync(path, JSON.stringify(importFile(status)));
      return path;
    });
    let importing = true;
    const imports = (async () => {
      const results = [];
      for (const file of files) results.push(await runImport(t.database.env, file));
      return results;
    })().finally(() => {
      importing = false;
    });

    const failures: string[] = [];
    let writes = 0;
    while (importing) {
      writes += 1;
      const updated = await t.request('PUT', `/api/webhook/subscriptions/${subscriptionId}`, {
        token,
        body: { uri: `https://hooks.example.com/during-import/${writes}` },
      });
      if (updated.status !== 200) failures.push(`PUT ${updated.status}: ${String(updated.body?.status?.errorMessage)}`);
    }

    for (const result of await imports) expect(result.code, result.output).toBe(0);
    expect(failures).toEqual([]);
    expect(writes).toBeGreaterThan(0);
    const stored = await t.app.db('timesheets').where({ site_id: 7000, status: 'Approved' }).count({ n: '*' });
    expect(Number(stored[0]?.n)).toBe(TIMESHEETS);
  }, 180_000);
});
