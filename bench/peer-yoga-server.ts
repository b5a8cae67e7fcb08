import { createServer } from 'node:http';
import { createYoga } from 'graphql-yoga';
import type { GraphQLContext } from '../src/graphql/context.js';
import { schema } from '../src/graphql/schema.js';
import { failChild, serveAsChild } from './child-ipc.js';
import { setUpPeer } from './peer-setup.js';

/**
 * The peer: what a user would build from the same schema without the gateway's work —
 * `createYoga({ schema })` with defaults, authentication in the context factory, the same
 * context shape ({ principal, services }), served by node:http.
 */
async function main(): Promise<void> {
  const { authenticator, services, statements, closeDatabase } = await setUpPeer();
  const yoga = createYoga({
    schema,
    context: async ({ request }): Promise<GraphQLContext> => ({
      principal: await authenticator.authenticate(Object.fromEntries(request.headers)),
      services,
    }),
  });
  await serveAsChild(createServer(yoga), statements, closeDatabase);
}

main().catch(failChild);
