import type { Config } from '../config.js';
import type { Db } from '../shared/db/knex.js';
import { runSubcommand } from './subcommands.js';
import { isKeyType } from '../shared/principal.js';
import { createApiKey } from '../auth/api-keys.js';
import { listApiKeys, revokeApiKey, type ApiKeyRecord } from '../repositories/api-keys.js';
import { keyScopeProblems } from '../repositories/organisation.js';
import { parseCommandArgs, parseId, parseIdList, UsageError } from './args.js';

export const KEYS_USAGE = `Usage:
  shiftgate keys create --type developer|timesheet --company ID [--customers 1,2] [--sites 3,4] [--name TEXT] [--json]
  shiftgate keys list [--json]
  shiftgate keys revoke ID`;

function describeKey(key: ApiKeyRecord): string {
  const scope = [
    `company ${key.companyId}`,
    key.customerIds.length ? `customers ${key.customerIds.join(',')}` : 'all customers',
    key.siteIds.length ? `sites ${key.siteIds.join(',')}` : 'all sites',
  ].join(', ');
  const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
  return `${key.id}\t${key.keyType}\t${key.keyPrefix}…\t${scope}\t${state}${key.name ? `\t${key.name}` : ''}`;
}

async function create(db: Db, args: string[]): Promise<number> {
  const text = { type: 'string' } as const;
  const { values } = parseCommandArgs(args, { type: text, company: text, customers: text, sites: text, name: text, json: { type: 'boolean' } });
  if (!isKeyType(values.type)) throw new UsageError('--type must be developer or timesheet');
  const companyId = parseId(values.company, '--company');
  const customerIds = parseIdList(values.customers, '--customers');
  const siteIds = parseIdList(values.sites, '--sites');
  const problems = await keyScopeProblems(db, companyId, customerIds, siteIds);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`shiftgate: ${problem}`);
    return 1;
  }
  const key = await createApiKey(db, { keyType: values.type, companyId, customerIds, siteIds, name: values.name ?? null });
  // A key record holds no hash: JSON shows all of it, with the plaintext key this once.
  if (values.json) {
    console.log(JSON.stringify(key, null, 2));
  } else {
    console.log(`Created ${key.keyType} API key ${key.id} for company ${companyId}.`);
    console.log(`API key (shown only now; it is stored hashed): ${key.apiKey}`);
  }
  return 0;
}

async function list(db: Db, args: string[]): Promise<number> {
  const { values } = parseCommandArgs(args, { json: { type: 'boolean' } });
  const keys = await listApiKeys(db);
  if (values.json) console.log(JSON.stringify(keys, null, 2));
  else if (keys.length === 0) console.log('No API keys.');
  else for (const key of keys) console.log(describeKey(key));
  return 0;
}

async function revoke(db: Db, args: string[]): Promise<number> {
  const { positionals } = parseCommandArgs(args, {});
  if (positionals.length !== 1) throw new UsageError('keys revoke takes one key id');
  const id = parseId(positionals[0], 'ID');
  if (!(await revokeApiKey(db, id))) {
    console.error(`shiftgate: no active API key ${id}`);
    return 1;
  }
  console.log(`Revoked API key ${id}. Its access tokens stop working within a minute.`);
  return 0;
}

export function keysCommand(args: string[], config: Config): Promise<number> {
  return runSubcommand(args, config, { create, list, revoke }, 'keys');
}
