import Fastify from 'fastify';
import mercurius from 'mercurius';
import type { GraphQLContext } from '../src/graphql/context.js';
import { schema } from '../src/graphql/schema.js';
import { failChild, serveAsChild } from './child-ipc.js';
import { setUpPeer } from './peer-setup.js';

/**
 * The fast peer: fastify + mercurius with graphql-jit (`jit: 1`, every query compiled the
 * first time it is seen) over the same Pothos schema, the same context shape built the same
 * way as the yoga peer's ({ principal, services }, authentication in the context factory), and
 * the same database layer. No logger, mercurius defaults otherwise.
 */
async function main(): Promise<void> {
  const { authenticator, services, statements, closeDatabase } = await setUpPeer();
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
  await serveAsChild(app.server, statements, async () => {
    await app.close();
    await closeDatabase();
  });
}

main().catch(failChild);
