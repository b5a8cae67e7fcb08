import { SUBSCRIPTION_KEY_HEADER } from '../../auth/authenticator.js';
import { TOKEN_PATH } from '../../rest/token-route.js';
import { DOCS_PATH } from '../docs-page.js';
import { GRAPHIQL_ASSET_PREFIX } from './assets.js';

const DEFAULT_QUERY = `# Sign in above: the headers below then hold a token,
# renewed before it expires. Press Run (Ctrl-Enter).
query Licenses {
  staff(employeeId: 1001) {
    firstName
    lastName
    licenses(first: 5) {
      edges {
        node { licenseNumber status expiryDate }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}
`;

/** Credentials the page may show: only public ones (the demo's), never a deployment's own. */
export interface GraphiQLPublicCredentials {
  /** The public demo subscription key, when the server accepts it. */
  subscriptionKey?: string;
  /** The public demo API key the page signs in with by itself (`serve --demo`). */
  demoApiKey?: string;
}

/**
 * The GraphiQL page: a sign-in bar above yoga's GraphiQL bundle, every asset from this server.
 * It carries no credential but the public ones it is given.
 */
export function graphiqlPage(credentials: GraphiQLPublicCredentials): string {
  const asset = (name: string) => GRAPHIQL_ASSET_PREFIX + name;
  // What sign-in.js (static/graphiql-sign-in.js) reads from the page.
  const settings = {
    endpoint: '/graphql',
    tokenPath: TOKEN_PATH,
    subscriptionKeyHeader: SUBSCRIPTION_KEY_HEADER,
    subscriptionKey: credentials.subscriptionKey ?? null,
    demoApiKey: credentials.demoApiKey ?? null,
    // Monaco's worker labels, as yoga's GraphiQL bundle names them.
    workers: { editorWorkerService: asset('editor.worker.js'), json: asset('json.worker.js'), graphql: asset('graphql.worker.js') },
    graphiql: { title: 'shiftgate GraphiQL', defaultQuery: DEFAULT_QUERY },
  };
  // JSON inside <script>: `<` escaped, so no value can end the element.
  const settingsJson = JSON.stringify(settings).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>shiftgate GraphiQL</title>
<link rel="icon" href="${asset('favicon.ico')}">
<link rel="stylesheet" href="${asset('graphiql.css')}">
<link rel="stylesheet" href="${asset('sign-in.css')}">
<script type="application/json" id="shiftgate-graphiql">${settingsJson}</script>
</head>
<body class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<form id="sign-in" autocomplete="off">
  <strong>shiftgate</strong>
  <a href="${DOCS_PATH}">API reference</a>
  <label>Subscription key <input name="subscriptionKey" type="password" size="18" required></label>
  <label>API key <input name="apiKey" type="password" size="24" required></label>
  <button type="submit">Sign in</button>
  <button type="button" name="signOut" hidden>Sign out</button>
  <output name="status" aria-live="polite"></output>
</form>
<div id="graphiql"></div>
<script src="${asset('graphiql.js')}"></script>
<script src="${asset('sign-in.js')}"></script>
</body>
</html>
`;
}
