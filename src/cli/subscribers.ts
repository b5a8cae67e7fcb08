import type { Config } from '../config.js';
import type { Db } from '../shared/db/knex.js';
import { runSubcommand } from './subcommands.js';
import { findSubscriberSecrets, rotateSigningSecret, type SubscriberSecrets } from '../repositories/subscribers.js';
import { generateSigningSecret } from '../webhooks/signing-secret.js';
import { previousSecretStillSigns } from '../webhooks/signing.js';
import { parseCommandArgs, parseId, UsageError } from './args.js';

export const USAGE = `Usage:
  shiftgate subscribers show ID [--json]
  shiftgate subscribers rotate-secret ID [--json]`;

/** How long the previous secret keeps signing after a rotation, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** What an operator is shown: the stored secrets, the previous one only while it still signs. */
type SubscriberView = SubscriberSecrets;

async function load(db: Db, id: number, now: number): Promise<SubscriberView | null> {
  const subscriber = await findSubscriberSecrets(db, id);
  if (!subscriber) return null;
  const signs = previousSecretStillSigns(subscriber.previousSecretExpiresAt, now);
  return {
    ...subscriber,
    previousSigningSecret: signs ? subscriber.previousSigningSecret : null,
    previousSecretExpiresAt: signs ? subscriber.previousSecretExpiresAt : null,
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
  // Deliveries sign with both secrets until the old one expires, so receivers never see a gap.
  const rotated = await rotateSigningSecret(db, id, generateSigningSecret(), new Date(now + ROTATION_OVERLAP_MS).toISOString());
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
  return runSubcommand(args, config, { show, 'rotate-secret': rotate }, USAGE, 'subscribers');
}
