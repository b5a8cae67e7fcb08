export const KEY_TYPES = ['developer', 'timesheet'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

/** Who is calling: resolved from the bearer token before any API layer runs. */
export interface Principal {
  keyId: number;
  keyType: KeyType;
  companyId: number;
  /** Empty means every customer of the company. */
  customerIds: readonly number[];
  /** Empty means every site of the company. */
  siteIds: readonly number[];
}

export function isKeyType(value: unknown): value is KeyType {
  return typeof value === 'string' && (KEY_TYPES as readonly string[]).includes(value);
}
