import { Authenticator } from '../src/auth/authenticator.js';
import { TokenIssuer } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { migrateLatest, openDatabase } from '../src/shared/db/knex.js';
import type { Services } from '../src/graphql/context.js';
import { CursorCodec } from '../src/shared/pagination/cursor-codec.js';
import { createWebhookServices } from '../src/webhooks/services.js';
import { argument } from './child-ipc.js';
import { JWT_SECRET, SUB_KEY } from './dataset.js';

/** What every GraphQL peer shares with the gateway: the database layer, the authenticator and the resolvers' services. */
export interface PeerSetup {
  authenticator: Authenticator;
  services: Services;
  /** SQL statements run so far. */
  statements: () => number;
  closeDatabase: () => Promise<void>;
}

/** Opens the data set named by `--db`, counting its statements, and builds the peer's authenticator and services. */
export async function setUpPeer(): Promise<PeerSetup> {
  const config = loadConfig({ DATABASE_URL: `sqlite:${argument('db')}`, SUBSCRIPTION_KEYS: SUB_KEY, JWT_SECRET });
  const db = openDatabase(config);
  await migrateLatest(db);
  let statements = 0;
  db.on('query', () => {
    statements++;
  });
  const secret = new TextEncoder().encode(JWT_SECRET);
  return {
    authenticator: new Authenticator(db, new TokenIssuer(secret, config.tokenTtlSeconds), config.subscriptionKeys, config.apiKeyCacheSeconds),
    services: { db, cursors: new CursorCodec(secret), now: () => new Date(), webhooks: createWebhookServices(config.webhooks, config.limits) },
    statements: () => statements,
    closeDatabase: () => db.destroy(),
  };
}
