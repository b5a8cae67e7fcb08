import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { GraphiQLOptions } from 'graphql-yoga';
import type { Principal } from '../shared/principal.js';
import type { LiveTicket } from '../webhooks/live-streams.js';
import { SUBSCRIPTION_KEY_HEADER } from '../auth/authenticator.js';
import type { GraphQLContext, Services } from './context.js';
import { schema } from './schema.js';
import { armorPlugins, type GraphQLLimits } from './armor.js';
import { maskErrorWith, requestIdPlugin, type UnexpectedErrorSink } from './error-masking.js';

/** What the HTTP layer hands to yoga: the caller, already authenticated. */
export interface ServerContext {
  principal?: Principal;
  /** Echoed in masked errors so a caller can quote it. */
  requestId?: string;
  /** Set when the request was admitted as a live stream (src/graphql/subscriptions/stream-admission.ts). */
  liveStream?: LiveTicket;
}

export type YogaApp = YogaServerInstance<ServerContext, GraphQLContext>;

const EXAMPLE_QUERY = `# Get a token first: POST /api/external/token/request {"apiKey": "…"},
# then put it in the Authorization header below.
query Licenses {
  staff(employeeId: 1001) {
    firstName
    lastName
    licenses(first: 5) {
      edges { node { securityLicenseId licenseNumber status expiryDate } }
      pageInfo { hasNextPage endCursor }
    }
  }
}
`;

export interface YogaAppOptions {
  graphiqlSubscriptionKey?: string;
  /** Work limits for documents sent to /graphql (src/graphql/armor.ts). */
  limits: GraphQLLimits;
  onUnexpectedError?: UnexpectedErrorSink;
}

/**
 * GraphiQL's page carries its whole JavaScript bundle as strings (about 45 MB of memory once
 * loaded): loaded when the page is first asked for, not by every process that starts.
 */
async function renderGraphiQL(options: GraphiQLOptions): Promise<string> {
  const { renderGraphiQL: render } = await import('@graphql-yoga/render-graphiql');
  return render(options);
}

export function createYogaApp(services: Services, options: YogaAppOptions): YogaApp {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    plugins: [...armorPlugins(options.limits), requestIdPlugin()],
    batching: { limit: options.limits.batchLimit },
    maskedErrors: { maskError: maskErrorWith(options.onUnexpectedError ?? (() => {})), isDev: false },
    graphqlEndpoint: '/graphql',
    // Cross-origin access is decided for every path in one place (src/server/cors.ts); yoga's own would allow any origin.
    cors: false,
    landingPage: false,
    logging: false,
    renderGraphiQL,
    graphiql: {
      title: 'shiftgate GraphiQL',
      defaultQuery: EXAMPLE_QUERY,
      headers: JSON.stringify({
        [SUBSCRIPTION_KEY_HEADER]: options.graphiqlSubscriptionKey ?? '<subscription key>',
        Authorization: 'Bearer <access token>',
      }),
    },
    context: ({ principal, liveStream }): GraphQLContext => {
      // The HTTP layer never lets an unauthenticated request reach execution.
      if (!principal) throw new Error('request reached GraphQL without a principal');
      return { principal, services, liveStream };
    },
  });
}
