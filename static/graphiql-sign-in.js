// The sign-in bar of shiftgate's GraphiQL page (src/server/graphiql/page.ts). It exchanges an API
// key for a token at the token endpoint, writes both credentials into GraphiQL's headers, renews
// the token before it expires, and then renders GraphiQL. Plain browser JavaScript, no build step.
(function () {
  'use strict';
  const settings = JSON.parse(document.getElementById('shiftgate-graphiql').textContent);
  const SUB = settings.subscriptionKeyHeader;
  const KEYS = {
    // The subscription key is entered once (this browser); the API key and tokens live as long as the tab.
    subscriptionKey: 'shiftgate:subscription-key',
    apiKey: 'shiftgate:api-key',
    token: 'shiftgate:token',
    issued: 'shiftgate:issued-tokens',
    signedOut: 'shiftgate:signed-out',
  };
  const form = document.getElementById('sign-in');
  const field = (name) => form.elements.namedItem(name);

  function readJson(storage, key) {
    try {
      return JSON.parse(storage.getItem(key) ?? 'null');
    } catch {
      return null;
    }
  }

  /** { accessToken, obtainedAt, expiresAt } in this browser's clock, or null. */
  let current = readJson(sessionStorage, KEYS.token);
  let renewal = null;
  let renewTimer;

  /** Renew when a fifth of the lifetime is left, at most a minute before expiry. */
  function renewAt(token) {
    return token.expiresAt - Math.min(60000, (token.expiresAt - token.obtainedAt) / 5);
  }

  function showStatus(text, failed) {
    const status = field('status');
    status.textContent = text;
    status.classList.toggle('failed', Boolean(failed));
  }

  function showSignedIn() {
    const until = new Date(current.expiresAt).toLocaleTimeString();
    showStatus(`Signed in. The token runs until ${until} and is renewed before then.`);
    field('signOut').hidden = false;
  }

  async function requestToken(subscriptionKey, apiKey) {
    const obtainedAt = Date.now();
    const res = await fetch(settings.tokenPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SUB]: subscriptionKey },
      body: JSON.stringify({ apiKey }),
    });
    const body = await res.json().catch(() => null);
    const data = body && body.data;
    if (!res.ok || !data || typeof data.accessToken !== 'string') {
      const reason = (body && body.status && body.status.errorMessage) || `HTTP ${res.status}`;
      throw new Error(reason);
    }
    // The lifetime the server states, counted on this clock, so a skewed clock does not matter.
    return { accessToken: data.accessToken, obtainedAt, expiresAt: obtainedAt + data.expiresIn * 1000 };
  }

  function adopt(token) {
    current = token;
    sessionStorage.setItem(KEYS.token, JSON.stringify(token));
    const issued = readJson(sessionStorage, KEYS.issued) || [];
    if (!issued.includes(token.accessToken)) sessionStorage.setItem(KEYS.issued, JSON.stringify([...issued, token.accessToken].slice(-20)));
    clearTimeout(renewTimer);
    renewTimer = setTimeout(renew, Math.max(0, renewAt(token) - Date.now()));
    showSignedIn();
  }

  /** One renewal at a time; GraphQL requests wait for it when the token is due. */
  function renew() {
    renewal ??= (async () => {
      const subscriptionKey = localStorage.getItem(KEYS.subscriptionKey);
      const apiKey = sessionStorage.getItem(KEYS.apiKey);
      if (!subscriptionKey || !apiKey) return;
      try {
        adopt(await requestToken(subscriptionKey, apiKey));
      } catch (error) {
        showStatus(`Could not renew the token: ${error.message}. Sign in again.`, true);
        // A network failure may pass; try again while the token still works.
        if (current && Date.now() < current.expiresAt) renewTimer = setTimeout(renew, 15000);
      }
    })().finally(() => {
      renewal = null;
    });
    return renewal;
  }

  function hasAuthorization(input, init) {
    return new Headers(init && init.headers).has('authorization') || (input instanceof Request && input.headers.has('authorization'));
  }

  /** Before sign-in, GraphiQL's requests (its schema, a Run) are answered here instead of by a 401. */
  function signInFirst() {
    const body = { errors: [{ message: 'Sign in above with your subscription key and an API key first (or write an Authorization header).' }] };
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
  }

  // GraphiQL sends the headers its editor holds. A token this tab obtained earlier is replaced
  // by the current one, so a renewal needs no edit; any other value is sent as written.
  const originalFetch = window.fetch.bind(window);
  window.fetch = async function (input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.origin !== location.origin || url.pathname !== settings.endpoint) return originalFetch(input, init);
    if (!current) return hasAuthorization(input, init) ? originalFetch(input, init) : signInFirst();
    if (Date.now() >= renewAt(current)) await renew();
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init && init.headers).forEach((value, name) => headers.set(name, value));
    const sent = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') || '');
    const issued = readJson(sessionStorage, KEYS.issued) || [];
    if (sent && sent[1] !== current.accessToken && issued.includes(sent[1])) {
      headers.set('authorization', `Bearer ${current.accessToken}`);
      return originalFetch(input, { ...init, headers });
    }
    return originalFetch(input, init);
  };

  /** Headers JSON (one per line) with the credentials set; other headers the user wrote are kept. */
  function withCredentials(text) {
    let headers = {};
    try {
      headers = JSON.parse(text || '{}');
    } catch {
      return text;
    }
    if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return text;
    for (const name of Object.keys(headers)) {
      if (/^(authorization|external-gh-apim-sub-key)$/i.test(name)) delete headers[name];
    }
    const subscriptionKey = localStorage.getItem(KEYS.subscriptionKey);
    const credentials = { [SUB]: subscriptionKey || '', ...(current ? { Authorization: `Bearer ${current.accessToken}` } : {}) };
    return JSON.stringify({ ...credentials, ...headers }, null, 2);
  }

  /**
   * GraphiQL restores its tabs from localStorage: give every stored tab the current credentials.
   * It reopens the tab whose query, variables and headers equal its separately stored ones (else it
   * adds a new tab), so those are set to the active tab's.
   */
  function refreshStoredTabs() {
    const tabState = readJson(localStorage, 'graphiql:tabState');
    if (!tabState || !Array.isArray(tabState.tabs)) return;
    for (const tab of tabState.tabs) tab.headers = withCredentials(tab.headers);
    localStorage.setItem('graphiql:tabState', JSON.stringify(tabState));
    const active = tabState.tabs[tabState.activeTabIndex] || {};
    for (const name of ['query', 'variables', 'headers']) {
      if (typeof active[name] === 'string') localStorage.setItem(`graphiql:${name}`, active[name]);
      else localStorage.removeItem(`graphiql:${name}`);
    }
  }

  function renderGraphiQL() {
    refreshStoredTabs();
    self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => settings.workers[label] };
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById('graphiql'), {
      ...settings.graphiql,
      endpoint: settings.endpoint,
      headers: withCredentials('{}'),
    });
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const subscriptionKey = field('subscriptionKey').value.trim();
    const apiKey = field('apiKey').value.trim();
    showStatus('Signing in…');
    try {
      const token = await requestToken(subscriptionKey, apiKey);
      localStorage.setItem(KEYS.subscriptionKey, subscriptionKey);
      sessionStorage.setItem(KEYS.apiKey, apiKey);
      sessionStorage.removeItem(KEYS.signedOut);
      adopt(token);
      // GraphiQL reads its headers when it starts: start it again with the new ones.
      location.reload();
    } catch (error) {
      showStatus(`Sign-in failed: ${error.message}`, true);
    }
  });

  field('signOut').addEventListener('click', () => {
    for (const key of [KEYS.apiKey, KEYS.token, KEYS.issued]) sessionStorage.removeItem(key);
    // A demo page would otherwise sign in again by itself.
    sessionStorage.setItem(KEYS.signedOut, '1');
    current = null;
    refreshStoredTabs();
    location.reload();
  });

  async function start() {
    if (settings.subscriptionKey && !localStorage.getItem(KEYS.subscriptionKey)) {
      localStorage.setItem(KEYS.subscriptionKey, settings.subscriptionKey);
    }
    field('subscriptionKey').value = localStorage.getItem(KEYS.subscriptionKey) || '';
    if (current && Date.now() >= current.expiresAt) current = null;
    if (current && Date.now() >= renewAt(current)) await renew();
    else if (current) adopt(current);
    // A demo server names its public demo key: sign in with it when nobody has signed in yet.
    if (settings.demoApiKey) field('apiKey').value = settings.demoApiKey;
    const mayAutoSignIn = !sessionStorage.getItem(KEYS.apiKey) && !sessionStorage.getItem(KEYS.signedOut);
    if (!current && settings.demoApiKey && field('subscriptionKey').value && mayAutoSignIn) {
      sessionStorage.setItem(KEYS.apiKey, settings.demoApiKey);
      await renew();
    }
    if (current && sessionStorage.getItem(KEYS.apiKey) === settings.demoApiKey) {
      showStatus(`Signed in with the demo developer key. The token is renewed before it expires.`);
    }
    if (!current && !field('status').textContent) showStatus('Sign in with your subscription key and an API key to run queries.');
    renderGraphiQL();
  }

  start();
})();
