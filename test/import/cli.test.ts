import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fullFile, snapshot, tempDatabase, type TempDatabase } from './support.js';

const BIN = resolve(import.meta.dirname, '../../bin/shiftgate.js');

let t: TempDatabase;
beforeEach(async () => {
  t = await tempDatabase();
});
afterEach(async () => {
  await t.close();
});

function runImport(...args: string[]) {
  return runNode([BIN, 'import', ...args]);
}

function runNode(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, args, {
    env: { ...process.env, DATABASE_URL: t.url, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function writeJson(name: string, value: unknown): string {
  const path = join(t.dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

describe('shiftgate import FILE', () => {
  it('imports a valid file, prints a summary and exits 0', async () => {
    const result = runImport(writeJson('ok.json', fullFile()));

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('import complete: 16 inserted, 0 updated, 0 unchanged');
    expect(result.stdout).toContain('timesheets: 2 inserted, 0 updated, 0 unchanged');
    expect(await t.db('timesheets').count({ n: '*' })).toEqual([{ n: 2 }]);
  });

  it('prints one path: reason line per problem on stderr, writes nothing and exits 1', async () => {
    const file = fullFile();
    file.timesheets.push({ timesheetId: 9003, siteId: 99, employeeId: 1001, status: 'x' });
    (file.companies[0] as Record<string, unknown>).colour = 'red';
    const before = await snapshot(t.db);

    const result = runImport(writeJson('bad.json', file));

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      'companies[0].colour: unknown field',
      'timesheets[2].siteId: site 99 does not exist',
      '',
    ]);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('refuses a timesheet tying a site of one company to staff of another and exits 1', async () => {
    expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
    const before = await snapshot(t.db);

    const result = runImport(writeJson('cross.json', { timesheets: [{ timesheetId: 9960, siteId: 100, employeeId: 2001 }] }));

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('timesheets[0].employeeId: staff 2001 belongs to company 2, but site 100 belongs to company 1\n');
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('refuses to hand a stored subscriber to another company and exits 1, writing nothing', async () => {
    expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
    const before = await snapshot(t.db);

    const result = runImport(writeJson('move.json', { subscribers: [{ id: 301, companyId: 2, name: 'Acme payroll' }] }));

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('subscribers[0].companyId: subscriber 301 belongs to company 1 and cannot move to company 2\n');
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('explains an unreadable file or invalid JSON in one line and exits 1', () => {
    const missing = runImport(join(t.dir, 'missing.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/cannot read .*missing\.json \(ENOENT\)/);

    const path = join(t.dir, 'broken.json');
    writeFileSync(path, '{"companies": [');
    const broken = runImport(path);
    expect(broken.code).toBe(1);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toContain('broken.json is not valid JSON');
  });

  it('ends with a summary on stdout: per kind inserted, updated, unchanged, and the seconds taken', async () => {
    const first = runImport(writeJson('ok.json', fullFile()));
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^import complete: 16 inserted, 0 updated, 0 unchanged \(16 records in \d+\.\d\d s\)$/m);
    expect(first.stdout).toContain('  companies: 2 inserted, 0 updated, 0 unchanged (2 records)');

    const file = fullFile();
    file.companies[0]!.name = 'Acme Security Pty Ltd';
    const again = runImport(writeJson('again.json', file));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^import complete: 0 inserted, 1 updated, 15 unchanged \(16 records in \d+\.\d\d s\)$/m);
    expect(again.stdout).toContain('  companies: 0 inserted, 1 updated, 1 unchanged (2 records)');
    expect(again.stdout).toContain('  timesheets: 0 inserted, 0 updated, 2 unchanged (2 records)');
  });

  it('shows no progress when stderr is not a terminal', () => {
    const file = fullFile();
    for (let i = 0; i < 1_500; i++) file.timesheets.push({ timesheetId: 100_000 + i, siteId: 100, employeeId: 1001 } as (typeof file.timesheets)[number]);
    const result = runImport(writeJson('large.json', file));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('\r');
    expect(result.stdout).toContain('timesheets: 1502 inserted, 0 updated, 0 unchanged (1502 records)');
  });

  it('takes the arrays in any order: records before the parents they name', async () => {
    const file = fullFile();
    const reversed = Object.fromEntries(Object.entries(file).reverse());
    expect(Object.keys(reversed)[0]).toBe('subscribers');

    const result = runImport(writeJson('reversed.json', reversed));

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('import complete: 16 inserted, 0 updated, 0 unchanged');
    expect(await t.db('licenses').count({ n: '*' })).toEqual([{ n: 2 }]);
  });

  it('refuses a file cut off in the middle of a record in one line, writing nothing', async () => {
    expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
    const before = await snapshot(t.db);
    const file = fullFile();
    file.companies[0]!.name = 'Renamed';
    const text = JSON.stringify(file);
    const path = join(t.dir, 'cut.json');
    writeFileSync(path, text.slice(0, text.indexOf('"licenseNumber"') + 5));

    const result = runImport(path);

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cut\.json is not valid JSON: .* \(near licenses\[0\]\)$/m);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('reads a file far larger than one read, with brackets, quotes and multi-byte text in its strings', async () => {
    const file = fullFile();
    for (let i = 0; i < 3_000; i++) {
      file.timesheets.push({ timesheetId: 100_000 + i, siteId: 100, employeeId: 1001, notes: [{ text: `"]}{[ été \u{1F512} ${i}` }] } as (typeof file.timesheets)[number]);
    }
    // One bad record deep in the file: its index must come out right.
    (file.timesheets[2_502] as Record<string, unknown>).lock = 'no';
    const bad = runImport(writeJson('large-bad.json', file));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('timesheets[2502].lock: expected true or false, got string\n');
    expect(await t.db('timesheets').count({ n: '*' })).toEqual([{ n: 0 }]);

    (file.timesheets[2_502] as Record<string, unknown>).lock = false;
    const good = runImport(writeJson('large.json', file));
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('timesheets: 3002 inserted, 0 updated, 0 unchanged (3002 records)');
    const stored = (await t.db('timesheets').where('timesheet_id', 102_999).first()) as { notes: string };
    expect(JSON.parse(stored.notes)).toEqual([{ text: '"]}{[ été \u{1F512} 2999' }]);
  });

  it('leaves no spool in the temporary folder after an import, a refused record or a refused file', async () => {
    const tmp = join(t.dir, 'tmp');
    mkdirSync(tmp);
    const inTmp = (file: string) => runNode([BIN, 'import', file], { TMPDIR: tmp });
    const file = fullFile();
    expect(inTmp(writeJson('ok.json', file)).code).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);

    (file.licenses[1] as Record<string, unknown>).state = 7;
    const refused = inTmp(writeJson('bad.json', file));
    expect(refused.stderr).toBe('licenses[1].state: expected a string, got number\n');
    expect(readdirSync(tmp)).toEqual([]);

    const path = join(t.dir, 'late.json');
    writeFileSync(path, Buffer.concat([Buffer.from(JSON.stringify(fullFile()).slice(0, -1)), Buffer.from(',"sites": [{"name": "'), Buffer.from([0xff]), Buffer.from('"}]}')]));
    const notText = inTmp(path);
    expect(notText.stderr).toMatch(/^sites\[0\]\.name: not valid UTF-8/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('says so in one line when its temporary folder cannot be written, writing nothing', async () => {
    const before = await snapshot(t.db);
    const missing = join(t.dir, 'no-such-folder');

    const result = runNode([BIN, 'import', writeJson('ok.json', fullFile())], { TMPDIR: missing });

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`shiftgate import: cannot write its temporary files in ${missing} (ENOENT)\n`);
    expect(await snapshot(t.db)).toEqual(before);
  });

  describe('text that is not valid Unicode', () => {
    it('refuses bytes that are not UTF-8 with the path they are in, writing nothing', async () => {
      expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
      const before = await snapshot(t.db);
      const path = join(t.dir, 'latin1.json');
      const head = '{"companies": [{"id": 1, "name": "Acme"}, {"id": 2, "name": "Other ';
      writeFileSync(path, Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('"}]}')]));

      const result = runImport(path);

      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`companies[1].name: not valid UTF-8 (byte 0xff at byte ${head.length})\n`);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses an escaped lone surrogate with its path, writing nothing', async () => {
      expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
      const before = await snapshot(t.db);
      const path = join(t.dir, 'surrogate.json');
      writeFileSync(path, '{"companies": [{"id": 1, "name": "Acme \\ud800"}]}');

      const result = runImport(path);

      expect(result.code).toBe(1);
      expect(result.stderr).toBe('companies[0].name: text with a lone surrogate (not valid Unicode)\n');
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  describe('memory, whatever the file holds', () => {
    /** Runs the import with its peak resident memory, in MB, written at exit. */
    function runMeasured(file: string) {
      const rssFile = join(t.dir, 'max-rss');
      const preload = `data:text/javascript,${encodeURIComponent(
        `import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));`,
      )}`;
      const result = runNode(['--import', preload, BIN, 'import', file]);
      return { ...result, peakMB: Number(readFileSync(rssFile, 'utf8')) / 1024 };
    }

    /** Writes `head`, then `repeat` `times` over, then `tail`, a megabyte at a time. */
    function writeLarge(name: string, head: string, repeat: string, times: number, tail: string): string {
      const path = join(t.dir, name);
      const fd = openSync(path, 'w');
      writeSync(fd, head);
      const perWrite = Math.max(1, Math.floor((1 << 20) / repeat.length));
      const block = repeat.repeat(perWrite);
      for (let written = 0; written < times; written += perWrite) writeSync(fd, written + perWrite <= times ? block : repeat.repeat(times - written));
      writeSync(fd, tail);
      closeSync(fd);
      return path;
    }

    const TIMESHEET = '{"timesheets": [{"timesheetId": 9100, "siteId": 100, "employeeId": 1001, "notes": ';

    it('refuses a string of 320 MB at its path, in little memory, writing nothing', async () => {
      expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
      const before = await snapshot(t.db);
      const path = writeLarge('long-string.json', `${TIMESHEET}[{"text": "`, 'x', 320 * (1 << 20), '"}]}]}');

      const result = runMeasured(path);

      expect(result.code).toBe(1);
      expect(result.stderr).toBe('timesheets[0].notes[0].text: text longer than 65,536 characters\n');
      expect(result.peakMB).toBeLessThanOrEqual(300);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses nesting 200,000 deep at its path, in little memory, writing nothing', async () => {
      expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
      const before = await snapshot(t.db);
      const path = writeLarge('deep.json', TIMESHEET, '[', 200_000, `${']'.repeat(200_000)}}]}`);

      const result = runMeasured(path);

      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^timesheets\[0\]\.notes(\[0\]){61}: nested deeper than 64 levels\n$/);
      expect(result.peakMB).toBeLessThanOrEqual(300);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses a record of many small values at its path, in little memory, writing nothing', () => {
      const path = writeLarge('wide.json', `${TIMESHEET}[`, '{},', 50_000_000, '{}]}]}');

      const result = runMeasured(path);

      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^timesheets\[0\]\.notes\[\d+\]: larger than 1,048,576 characters\n$/);
      expect(result.peakMB).toBeLessThanOrEqual(300);
    });

    it('refuses a line of 300 MB by its number, in little memory, writing nothing', async () => {
      expect(runImport(writeJson('ok.json', fullFile())).code).toBe(0);
      const before = await snapshot(t.db);
      const path = writeLarge('long-line.ndjson', '{"companies": {"id": 1, "name": "Acme"}}\n{"timesheets": {"timesheetId": 9100, "siteId": 100, "employeeId": 1001, "notes": "', 'x', 300 * (1 << 20), '"}}\n');

      const result = runMeasured(path);

      expect(result.code).toBe(1);
      expect(result.stderr).toBe('line 2: longer than 1,048,576 bytes\n');
      expect(result.peakMB).toBeLessThanOrEqual(300);
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  describe('a line-delimited file', () => {
    const lines = (file: Record<string, unknown[]>) =>
      Object.entries(file)
        .flatMap(([section, records]) => records.map((record) => JSON.stringify({ [section]: record })))
        .join('\n');

    it('imports as the JSON form does, with the same summary', () => {
      const path = join(t.dir, 'ok.ndjson');
      writeFileSync(path, lines(fullFile() as unknown as Record<string, unknown[]>));

      const result = runImport(path);

      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('import complete: 16 inserted, 0 updated, 0 unchanged');
    });

    it('prints each problem with its line, a refusal or a syntax error in one line, and writes nothing', async () => {
      const before = await snapshot(t.db);
      const file = fullFile() as unknown as Record<string, unknown[]>;
      (file.companies![1] as Record<string, unknown>).colour = 'red';
      const bad = join(t.dir, 'bad.jsonl');
      writeFileSync(bad, lines(file));
      const surrogate = join(t.dir, 'surrogate.jsonl');
      writeFileSync(surrogate, '\n{"companies": {"id": 1, "name": "Acme \\ud800"}}\n');
      const broken = join(t.dir, 'broken.ndjson');
      writeFileSync(broken, '{"companies": {"id": 1}}\n{"companies": ');

      expect(runImport(bad)).toMatchObject({ code: 1, stdout: '', stderr: 'line 2: companies[1].colour: unknown field\n' });
      expect(runImport(surrogate)).toMatchObject({ code: 1, stdout: '', stderr: 'line 2: companies[0].name: text with a lone surrogate (not valid Unicode)\n' });
      const syntax = runImport(broken);
      expect(syntax.code).toBe(1);
      expect(syntax.stderr).toMatch(/^shiftgate import: .*broken\.ndjson is not valid JSON: line 2: [^\n]+\n$/);
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  it('exits 2 with usage when no file is given', () => {
    const result = runImport();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/usage: shiftgate import FILE/i);
  });
});
