import type { Db } from '../shared/db/knex.js';
import { selectRows } from '../shared/db/statements.js';
import { isKeyType, type KeyType } from '../shared/principal.js';

export interface ApiKeyRecord {
  id: number;
  keyType: KeyType;
  companyId: number;
  customerIds: number[];
  siteIds: number[];
  name: string | null;
  keyPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

interface ApiKeyRow {
  id: number;
  key_type: string;
  company_id: number;
  customer_ids: string;
  site_ids: string;
  name: string | null;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  if (!isKeyType(row.key_type)) throw new Error(`api key ${row.id} has unknown type`);
  return {
    id: Number(row.id),
    keyType: row.key_type,
    companyId: Number(row.company_id),
    customerIds: JSON.parse(row.customer_ids) as number[],
    siteIds: JSON.parse(row.site_ids) as number[],
    name: row.name,
    keyPrefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export interface ApiKeyInsert {
  keyHash: string;
  keyPrefix: string;
  keyType: KeyType;
  companyId: number;
  customerIds: readonly number[];
  siteIds: readonly number[];
  name: string | null;
}

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
  const [inserted] = await db('api_keys').insert(row).returning('id');
  const id = Number(typeof inserted === 'object' ? (inserted as { id: number }).id : inserted);
  return toRecord({ ...row, id });
}

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRecord | null> {
  const row = (await db('api_keys').where({ key_hash: keyHash }).first()) as ApiKeyRow | undefined;
  return row ? toRecord(row) : null;
}

export async function findApiKeyById(db: Db, id: number): Promise<ApiKeyRecord | null> {
  const [row] = (await selectRows(db, db('api_keys').where({ id }).limit(1))) as unknown as ApiKeyRow[];
  return row ? toRecord(row) : null;
}

export async function listApiKeys(db: Db): Promise<ApiKeyRecord[]> {
  const rows = (await db('api_keys').orderBy('id')) as ApiKeyRow[];
  return rows.map(toRecord);
}

/** Marks a key revoked; true when a key was found that was not already revoked. */
export async function revokeApiKey(db: Db, id: number): Promise<boolean> {
  const count = await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: new Date().toISOString() });
  return count > 0;
}

/** Which of these keys exist and are not revoked (one query per 500 ids). */
export async function activeApiKeyIds(db: Db, ids: readonly number[]): Promise<number[]> {
  const active: number[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = (await db('api_keys').whereIn('id', chunk).whereNull('revoked_at').select('id')) as { id: number }[];
    for (const row of rows) active.push(Number(row.id));
  }
  return active;
}
