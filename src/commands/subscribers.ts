import type { Config } from '../config.js';
import type { Db } from '../db/knex.js';
import { runSubcommand } from './subcommands.js';
import { generateSigningSecret } from '../import/signing-secret.js';
import { parseCommandArgs, parseId, UsageError } from './args.js';

export const USAGE = `Usage:
  shiftgate subscribers show ID [--json]
  shiftgate subscribers rotate-secret ID [--json]`;

/** How long the previous secret keeps signing after a rotation, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

interface SubscriberView {
  id: number;
  companyId: number;
  name: string;
  signingSecret: string;
  previousSigningSecret: string | null;
  previousSecretExpiresAt: string | null;
  eventFilters: { id: number; event: string; eventType: string }[];
}

async function load(db: Db, id: number, now: number): Promise<SubscriberView | null> {
  const row = (await db('subscribers').where({ id }).first()) as Record<string, unknown> | undefined;
  if (!row) return null;
  const filters = (await db('event_filters').where({ subscriber_id: id }).orderBy('id')) as Record<string, unknown>[];
  const expires = (row.previous_secret_expires_at as string | null) ?? null;
  const live = expires !== null && Date.parse(expires) > now;
  return {
    id: Number(row.id),
    companyId: Number(row.company_id),
    name: String(row.name),
    signingSecret: String(row.signing_secret),
    previousSigningSecret: live ? String(row.previous_signing_secret) : null,
    previousSecretExpiresAt: live ? expires : null,
    eventFilters: filters.map((f) => ({ id: Number(f.id), event: String(f.event), eventType: String(f.event_type) })),
  };
}

function print(view: SubscriberView, json: boolean | undefined): void {
  if (json) {
    console.log(JSON.stringify(view, null, 2));
    return;
  }
  console.log(`Subscriber ${view.id} (company ${view.companyId}): ${view.name}`);
  console.log(`  signing secret: ${view.signingSecret}`);
  if (view.previousSigningSecret) {
    console.log(`  previous secret (still signing until ${view.previousSecretExpiresAt}): ${view.previousSigningSecret}`);
  }
  const pairs = view.eventFilters.map((f) => `${f.event}/${f.eventType} (filter ${f.id})`).join(', ');
  console.log(`  event filters: ${pairs || 'none'}`);
}

async function show(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('subscribers show takes one subscriber id');
  const id = parseId(positionals[0], 'ID');
  const view = await load(db, id, Date.now());
  if (!view) {
    console.error(`shiftgate: no subscriber ${id}`);
    return 1;
  }
  print(view, values.json);
  return 0;
}

async function rotate(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('subscribers rotate-secret takes one subscriber id');
  const id = parseId(positionals[0], 'ID');
  const now = Date.now();
  const rotated = await db.transaction(async (trx) => {
    const row = (await trx('subscribers').where({ id }).first('signing_secret')) as { signing_secret: string } | undefined;
    if (!row) return false;
    // Deliveries sign with both secrets until the old one expires, so receivers never see a gap.
    await trx('subscribers')
      .where({ id })
      .update({
        signing_secret: generateSigningSecret(),
        previous_signing_secret: row.signing_secret,
        previous_secret_expires_at: new Date(now + ROTATION_OVERLAP_MS).toISOString(),
      });
    return true;
  });
  if (!rotated) {
    console.error(`shiftgate: no subscriber ${id}`);
    return 1;
  }
  const view = await load(db, id, now);
  if (!view) return 1;
  if (!values.json) console.log(`Rotated the signing secret of subscriber ${id}; both secrets sign for 24 hours.`);
  print(view, values.json);
  return 0;
}

export function subscribersCommand(args: string[], config: Config): Promise<number> {
  return runSubcommand(args, config, { show, 'rotate-secret': rotate }, USAGE);
}
