import { createServer } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { Authenticator } from '../src/auth/authenticator.js';
import { TokenIssuer } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { migrateLatest, openDatabase } from '../src/shared/db/knex.js';
import type { GraphQLContext, Services } from '../src/graphql/context.js';
import { schema } from '../src/graphql/schema.js';
import { CursorCodec } from '../src/shared/pagination/cursor-codec.js';
import { createWebhookServices } from '../src/webhooks/services.js';
import { argument, failChild, serveAsChild } from './child-ipc.js';
import { JWT_SECRET, SUB_KEY } from './dataset.js';

/**
 * The peer: what a user would build from the same schema without the gateway's work —
 * `createYoga({ schema })` with defaults, authentication in the context factory, the same
 * context shape ({ principal, services }), served by node:http.
 */
async function main(): Promise<void> {
  const config = loadConfig({ DATABASE_URL: `sqlite:${argument('db')}`, SUBSCRIPTION_KEYS: SUB_KEY, JWT_SECRET });
  const db = openDatabase(config);
  await migrateLatest(db);
  let statements = 0;
  db.on('query', () => {
    statements++;
  });
  const secret = new TextEncoder().encode(JWT_SECRET);
  const authenticator = new Authenticator(db, new TokenIssuer(secret, config.tokenTtlSeconds), config.subscriptionKeys, config.apiKeyCacheSeconds);
  const services: Services = { db, cursors: new CursorCodec(secret), now: () => new Date(), webhooks: createWebhookServices(config.webhooks) };
  const yoga = createYoga({
    schema,
    context: async ({ request }): Promise<GraphQLContext> => ({
      principal: await authenticator.authenticate(Object.fromEntries(request.headers)),
      services,
    }),
  });
  await serveAsChild(createServer(yoga), () => statements, () => db.destroy());
}

main().catch(failChild);
