import Fastify from 'fastify';
import mercurius from 'mercurius';
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
 * The fast peer: fastify + mercurius with graphql-jit (`jit: 1`, every query compiled the
 * first time it is seen) over the same Pothos schema, the same context shape built the same
 * way as the yoga peer's ({ principal, services }, authentication in the context factory), and
 * the same database layer. No logger, mercurius defaults otherwise.
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
  const app = Fastify({ logger: false });
  await app.register(mercurius, {
    schema,
    jit: 1,
    context: async (request): Promise<GraphQLContext> => ({
      principal: await authenticator.authenticate(request.headers),
      services,
    }),
  });
  await app.ready();
  await serveAsChild(app.server, () => statements, async () => {
    await app.close();
    await db.destroy();
  });
}

main().catch(failChild);
