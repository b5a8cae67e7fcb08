import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveJwtSecret } from '../../src/auth/jwt-secret.js';

describe('generated JWT secret', () => {
  it('is created once, private, kept across calls, and leaves no draft files behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shiftgate-secret-'));
    const first = Buffer.from(resolveJwtSecret(undefined, dir)).toString();
    const second = Buffer.from(resolveJwtSecret(undefined, dir)).toString();
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readdirSync(dir)).toEqual(['jwt-secret']);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o077).toBe(0);
  });

  it('uses JWT_SECRET as given when it is set, writing nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shiftgate-secret-'));
    expect(Buffer.from(resolveJwtSecret('configured-secret', dir)).toString()).toBe('configured-secret');
    expect(readdirSync(dir)).toEqual([]);
  });
});
