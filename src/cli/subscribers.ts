import type { Config } from '../config.js';
import { DAY_MS } from '../shared/clock.js';
import type { Db } from '../shared/db/knex.js';
import { runSubcommand } from './subcommands.js';
import { findSubscriberSecrets, rotateSigningSecret } from '../repositories/subscriptions.js';
import { generateSigningSecret } from '../webhooks/signing-secret.js';
import { previousSecretStillSigns } from '../webhooks/signing.js';
import { parseCommandArgs, parseId, UsageError } from './args.js';

export const USAGE = `Usage:
  shiftgate subscribers show ID [--json]
  shiftgate subscribers rotate-secret ID [--json]`;

/** Shows the subscriber with its stored secrets, the previous one only while it still signs. */
async function print(db: Db, id: number, now: number, json: boolean | undefined): Promise<number> {
  const found = await findSubscriberSecrets(db, id);
  if (!found) {
    console.error(`shiftgate: no subscriber ${id}`);
    return 1;
  }
  const signs = previousSecretStillSigns(found.previousSecretExpiresAt, now);
  const view = {
    ...found,
    previousSigningSecret: signs ? found.previousSigningSecret : null,
    previousSecretExpiresAt: signs ? found.previousSecretExpiresAt : null,
  };
  if (json) {
    console.log(JSON.stringify(view, null, 2));
    return 0;
  }
  console.log(`Subscriber ${view.id} (company ${view.companyId}): ${view.name}`);
  console.log(`  signing secret: ${view.signingSecret}`);
  if (view.previousSigningSecret) {
    console.log(`  previous secret (still signing until ${view.previousSecretExpiresAt}): ${view.previousSigningSecret}`);
  }
  const pairs = view.eventFilters.map((f) => `${f.event}/${f.eventType} (filter ${f.id})`).join(', ');
  console.log(`  event filters: ${pairs || 'none'}`);
  return 0;
}

function subscriberArgs(args: string[], subcommand: string): { id: number; json: boolean | undefined } {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError(`subscribers ${subcommand} takes one subscriber id`);
  return { id: parseId(positionals[0], 'ID'), json: values.json };
}

function show(db: Db, args: string[]): Promise<number> {
  const { id, json } = subscriberArgs(args, 'show');
  return print(db, id, Date.now(), json);
}

async function rotate(db: Db, args: string[]): Promise<number> {
  const { id, json } = subscriberArgs(args, 'rotate-secret');
  const now = Date.now();
  // Deliveries sign with both secrets until the old one expires a day later, so receivers can switch over without a gap.
  const rotated = await rotateSigningSecret(db, id, generateSigningSecret(), new Date(now + DAY_MS).toISOString());
  if (rotated && !json) console.log(`Rotated the signing secret of subscriber ${id}; both secrets sign for 24 hours.`);
  return print(db, id, now, json);
}

export function subscribersCommand(args: string[], config: Config): Promise<number> {
  return runSubcommand(args, config, { show, 'rotate-secret': rotate }, 'subscribers');
}
