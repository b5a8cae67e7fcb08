import type { Db } from '../shared/db/knex.js';
import { chunk, ID_CHUNK } from '../shared/chunk.js';
import { selectRows } from '../shared/db/statements.js';
import { isKeyType } from '../shared/principal.js';

function toRecord(row: Record<string, unknown>) {
  if (!isKeyType(row.key_type)) throw new Error(`api key ${String(row.id)} has unknown type`);
  return {
    id: Number(row.id),
    keyType: row.key_type,
    companyId: Number(row.company_id),
    customerIds: JSON.parse(String(row.customer_ids)) as number[],
    siteIds: JSON.parse(String(row.site_ids)) as number[],
    name: row.name as string | null,
    keyPrefix: String(row.key_prefix),
    createdAt: String(row.created_at),
    revokedAt: row.revoked_at as string | null,
  };
}

export type ApiKeyRecord = ReturnType<typeof toRecord>;

type ApiKeyInsert = Pick<ApiKeyRecord, 'keyPrefix' | 'keyType' | 'companyId' | 'customerIds' | 'siteIds' | 'name'> & { keyHash: string };

/** Stores a key by its hash (the plaintext never reaches the database). */
export async function insertApiKey(db: Db, key: ApiKeyInsert): Promise<ApiKeyRecord> {
  const row = {
    key_hash: key.keyHash,
    key_prefix: key.keyPrefix,
    key_type: key.keyType,
    company_id: key.companyId,
    customer_ids: JSON.stringify(key.customerIds),
    site_ids: JSON.stringify(key.siteIds),
    name: key.name,
    created_at: new Date().toISOString(),
    revoked_at: null,
  };
  const [inserted] = (await db('api_keys').insert(row).returning('id')) as { id: number }[];
  return toRecord({ ...row, id: inserted!.id });
}

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRecord | null> {
  const row = (await db('api_keys').where({ key_hash: keyHash }).first()) as Record<string, unknown> | undefined;
  return row ? toRecord(row) : null;
}

export async function findApiKeyById(db: Db, id: number): Promise<ApiKeyRecord | null> {
  const [row] = await selectRows(db, db('api_keys').where({ id }).limit(1));
  return row ? toRecord(row) : null;
}

export async function listApiKeys(db: Db): Promise<ApiKeyRecord[]> {
  return ((await db('api_keys').orderBy('id')) as Record<string, unknown>[]).map(toRecord);
}

/** Marks a key revoked; true when a key was found that was not already revoked. */
export async function revokeApiKey(db: Db, id: number): Promise<boolean> {
  return (await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: new Date().toISOString() })) > 0;
}

/** Which of these keys exist and are not revoked (one query per 500 ids). */
export async function activeApiKeyIds(db: Db, ids: readonly number[]): Promise<number[]> {
  const active: number[] = [];
  for (const part of chunk(ids, ID_CHUNK)) {
    const found = (await db('api_keys').whereIn('id', part).whereNull('revoked_at').pluck('id')) as number[];
    active.push(...found.map(Number));
  }
  return active;
}
