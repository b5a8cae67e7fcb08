import { findApiKeyByHash, insertApiKey, type ApiKeyRecord } from '../repositories/api-keys.js';
import type { Db } from '../shared/db/knex.js';
import type { Principal } from '../shared/principal.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key-secret.js';

export function principalOf(record: ApiKeyRecord): Principal {
  return {
    keyId: record.id,
    keyType: record.keyType,
    companyId: record.companyId,
    customerIds: record.customerIds,
    siteIds: record.siteIds,
  };
}

type NewApiKey = Pick<ApiKeyRecord, 'keyType' | 'companyId'> & Partial<Pick<ApiKeyRecord, 'customerIds' | 'siteIds' | 'name'>> & {
  /** Only for well-known demo keys; otherwise a random key is generated. */
  apiKey?: string;
};

/** Stores a new key (hashed) and returns the plaintext once. */
export async function createApiKey(db: Db, input: NewApiKey): Promise<ApiKeyRecord & { apiKey: string }> {
  const apiKey = input.apiKey ?? generateApiKey();
  const record = await insertApiKey(db, {
    keyHash: hashApiKey(apiKey),
    keyPrefix: apiKeyPrefix(apiKey),
    keyType: input.keyType,
    companyId: input.companyId,
    customerIds: input.customerIds ?? [],
    siteIds: input.siteIds ?? [],
    name: input.name ?? null,
  });
  return { ...record, apiKey };
}

export function findApiKeyByPlaintext(db: Db, apiKey: string): Promise<ApiKeyRecord | null> {
  return findApiKeyByHash(db, hashApiKey(apiKey));
}
