import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * JWT_SECRET when set; otherwise a secret generated once and kept in the data directory,
 * so tokens survive restarts. The secret is written to a private temporary file and then
 * linked into place, which either succeeds whole or fails because another instance got there
 * first: nobody can read a half-written file, and instances starting together agree.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): Uint8Array {
  if (configured !== undefined) return new TextEncoder().encode(configured);
  const path = join(dataDir, 'jwt-secret');
  mkdirSync(dataDir, { recursive: true });
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(draft, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  const secret = readFileSync(path, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${path}: stored JWT secret is too short; delete it to regenerate`);
  return new TextEncoder().encode(secret);
}
