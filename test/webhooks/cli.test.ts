import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.js';
import { startReceiver, startWebhookApp, subscribe, waitFor, type Receiver } from './support.js';

const BIN = resolve('bin/shiftgate.js');

describe('shiftgate subscribers and import → signed webhook', () => {
  let t: TestApp;
  let receiver: Receiver;
  let databaseUrl: string;

  beforeAll(async () => {
    t = await startWebhookApp();
    receiver = await startReceiver();
    const config = t.app.config.database;
    databaseUrl = config.client === 'sqlite' ? `sqlite:${config.filename}` : config.connectionString;
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  function cli(...args: string[]) {
    const result = spawnSync(process.execPath, [BIN, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('shows a subscriber as JSON, rotates its secret, and the next delivery carries both signatures', async () => {
    const shown = cli('subscribers', 'show', '301', '--json');
    expect(shown.code, shown.stderr).toBe(0);
    const before = JSON.parse(shown.stdout);
    expect(before).toMatchObject({ id: 301, companyId: 1, name: 'Acme payroll', eventFilters: [{ id: 3011, event: 'timesheet', eventType: 'approved' }] });
    expect(before.signingSecret).toMatch(/^whsec_/);

    const rotated = cli('subscribers', 'rotate-secret', '301', '--json');
    expect(rotated.code, rotated.stderr).toBe(0);
    const after = JSON.parse(rotated.stdout);
    expect(after.signingSecret).not.toBe(before.signingSecret);
    expect(after.previousSigningSecret).toBe(before.signingSecret);

    const token = await t.token({ type: 'developer', companyId: 1 });
    await subscribe(t, token, { subscriberId: 301, uri: `${receiver.url}/payroll` });
    // The README's demo: an import run by the CLI produces a signed delivery from the server.
    const file = join(t.app.config.dataDir, 'approve.json');
    writeFileSync(file, JSON.stringify({ timesheets: [{ timesheetId: 9601, siteId: 100, employeeId: 1001, status: 'Approved' }] }));
    const imported = cli('import', file);
    expect(imported.code, imported.stderr).toBe(0);

    const [request] = await waitFor(() => receiver.received.length > 0 && receiver.received, 'the signed delivery');
    const headers = {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    // Receivers on either secret accept it during the rotation window.
    expect(new Webhook(after.signingSecret).verify(request!.body, headers)).toMatchObject({ type: 'timesheet.approved' });
    expect(new Webhook(before.signingSecret).verify(request!.body, headers)).toMatchObject({ type: 'timesheet.approved' });
  });

  it('reports an unknown subscriber', () => {
    const result = cli('subscribers', 'show', '999');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no subscriber 999/);
  });
});
