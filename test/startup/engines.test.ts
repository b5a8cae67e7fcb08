import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

interface LockedPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
  dependencies?: Record<string, string>;
  hasInstallScript?: boolean;
}
interface Lock {
  packages: Record<string, LockedPackage>;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as T;

/** The lock entry node would load for `name` required from the package at `from` (walking up the node_modules folders). */
function resolvedFrom(lock: Lock, from: string, name: string): LockedPackage | undefined {
  let dir = from;
  for (;;) {
    const entry = lock.packages[`${dir === '' ? '' : `${dir}/`}node_modules/${name}`];
    if (entry) return entry;
    if (dir === '') return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

/** Every locked package whose declared Node range leaves out `node`, and every dependency whose locked version is outside the range its dependent asks for. */
export function lockProblems(lock: Lock, node: string): string[] {
  const problems: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const engines = entry.engines;
    const wanted = engines && !Array.isArray(engines) ? engines.node : undefined;
    if (path !== '' && wanted && !semver.satisfies(node, wanted)) problems.push(`${path}@${entry.version} requires node ${wanted}`);
    for (const [name, range] of Object.entries(entry.dependencies ?? {})) {
      const target = resolvedFrom(lock, path, name);
      if (target?.version && semver.validRange(range) && !semver.satisfies(target.version, range, { includePrerelease: true })) {
        problems.push(`${path || '(root)'} asks for ${name}@${range} and gets ${target.version}`);
      }
    }
  }
  return problems;
}

describe('the Node versions the project claims (package.json engines)', () => {
  const pkg = readJson<{ engines: { node: string }; allowScripts?: Record<string, boolean> }>('package.json');
  const lock = readJson<Lock>('package-lock.json');
  const lowest = semver.minVersion(pkg.engines.node)?.version ?? '';

  it('claims Node 20.19 and later, and runs on the Node it claims', () => {
    expect(pkg.engines.node).toBe('>=20.19.0');
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it('every locked package, for running and for development, supports the lowest Node claimed and the one running', () => {
    expect(lowest).toBe('20.19.0');
    expect(lockProblems(lock, lowest)).toEqual([]);
    expect(lockProblems(lock, process.versions.node)).toEqual([]);
  });

  it('the check finds a package that requires a later Node, and a version outside the range asked for', () => {
    const broken: Lock = {
      packages: {
        '': { dependencies: { a: '^1.0.0' } },
        'node_modules/a': { version: '1.2.0', engines: { node: '>=22.15.0' }, dependencies: { b: '^2.0.0' } },
        'node_modules/b': { version: '2.0.0' },
        'node_modules/a/node_modules/b': { version: '1.3.2' },
      },
    };
    expect(lockProblems(broken, '20.19.0')).toEqual([
      'node_modules/a@1.2.0 requires node >=22.15.0',
      'node_modules/a asks for b@^2.0.0 and gets 1.3.2',
    ]);
  });

  it('every locked package with an install script has been reviewed in allowScripts', () => {
    const reviewed = pkg.allowScripts ?? {};
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(reviewed[name], name).toBeTypeOf('boolean');
    // The native SQLite driver must build; the API reference's install-time analytics must not run.
    expect(reviewed['better-sqlite3']).toBe(true);
    expect(reviewed['@scarf/scarf']).toBe(false);
  });
});
