import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.js';

// A scratch database, so a command that wrongly ran instead of refusing touches nothing real.
const dir = mkdtempSync(join(tmpdir(), 'shiftgate-help-'));
const env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, DATA_DIR: dir };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shiftgate --help', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the usage of every command on stdout and exits 0', async (flag) => {
    const run = await runCli([flag], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const command of ['serve', 'migrate', 'import', 'keys create', 'keys list', 'keys revoke', 'subscribers show', 'subscribers rotate-secret']) {
      expect(run.stdout).toContain(`  ${command}`);
    }
    expect(run.stdout).toMatch(/serve \[--port N\] \[--demo\]/);
  });

  it.each([
    ['serve', /shiftgate serve \[--port N\] \[--demo\]/],
    ['migrate', /shiftgate migrate/],
    ['import', /shiftgate import FILE/],
    ['keys', /shiftgate keys create --type/],
    ['subscribers', /shiftgate subscribers rotate-secret ID/],
  ])('`%s --help` prints that command’s usage on stdout and exits 0', async (command, usage) => {
    const run = await runCli([command, '--help'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(usage);
    expect(run.stderr).toBe('');
  });

  it('prints the usage on stderr and exits 2 without a command', async () => {
    const run = await runCli([], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Usage: shiftgate <command>/);
  });

  it('prints the usage on stderr and exits 2 for an unknown command or an unknown global flag', async () => {
    for (const args of [['bogus'], ['--bogus'], ['toString']]) {
      const run = await runCli(args, env);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/Usage: shiftgate <command>/);
      expect(run.stdout).toBe('');
    }
  });

  it.each([
    [['serve', '--bogus'], /shiftgate serve \[--port N\] \[--demo\]/],
    [['serve', 'extra'], /shiftgate serve \[--port N\] \[--demo\]/],
    [['migrate', '--bogus'], /shiftgate migrate/],
    [['import', '--bogus'], /shiftgate import FILE/],
    [['keys', 'list', '--bogus'], /shiftgate keys list/],
    [['subscribers', 'show', '1', '--bogus'], /shiftgate subscribers show ID/],
  ])('%j prints the command’s usage on stderr and exits 2', async (args, usage) => {
    const run = await runCli(args, env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(usage);
    expect(run.stdout).toBe('');
  });

  it('`help` with an unknown command says so on stderr and exits 2', async () => {
    const run = await runCli(['help', 'bogus'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command "bogus"/);
    expect(run.stderr).toMatch(/Usage: shiftgate <command>/);
    expect(run.stdout).toBe('');
  });

  it.each([
    [['import', '--bogus'], /unknown option "--bogus"/],
    [['import', 'a.json', 'b.json'], /takes one FILE/],
    [['keys', 'bogus'], /unknown keys subcommand "bogus"/],
    [['keys', 'toString'], /unknown keys subcommand "toString"/],
    [['subscribers', 'bogus'], /unknown subscribers subcommand "bogus"/],
  ])('%j names what was wrong above the usage', async (args, reason) => {
    const run = await runCli(args, env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(reason);
    expect(run.stderr).toMatch(/Usage:/);
    expect(run.stdout).toBe('');
  });
});
