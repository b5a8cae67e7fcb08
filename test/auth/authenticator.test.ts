import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/repositories/api-keys.js';
import { appPerTest, SUB_KEY } from '../support/test-app.js';

const START = Date.parse('2026-02-10T12:00:00.000Z');

/**
 * The authenticator answers a request whose token and key it remembers at once, without a
 * promise (src/auth/authenticator.ts); anything it must check first is a promise, and every
 * refusal is the same either way.
 */
describe('authenticating remembered credentials', () => {
  const startApp = appPerTest();

  it('answers at once for a remembered token and key, through a promise otherwise', async () => {
    let clock = START;
    const t = await startApp({ now: () => clock });
    const { id } = await t.key({ type: 'developer', companyId: 1 });
    // Issued by the app's own issuer: a token the authenticator has never verified.
    const issued = await t.app.tokens.issue(id);
    const headers = { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${issued.accessToken}` };
    const { authenticator } = t.app;

    const first = authenticator.authenticate(headers);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ keyId: id, keyType: 'developer', companyId: 1 });
    const again = authenticator.authenticate(headers);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ keyId: id });

    // The key's state is read again once the cache has aged (API_KEY_CACHE_SECONDS): a promise again.
    clock += (t.app.config.apiKeyCacheSeconds + 1) * 1000;
    const reread = authenticator.authenticate(headers);
    expect(reread).toBeInstanceOf(Promise);
    expect(await reread).toMatchObject({ keyId: id });
    expect(authenticator.authenticate(headers)).not.toBeInstanceOf(Promise);

    // Revoked: refused once the key is read again, and refused at once from then on.
    await revokeApiKey(t.app.db, id);
    clock += (t.app.config.apiKeyCacheSeconds + 1) * 1000;
    await expect(authenticator.authenticate(headers)).rejects.toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    expect(() => authenticator.authenticate(headers)).toThrow(expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }));
  });

  it('refuses bad credentials at once, before anything is read', async () => {
    const t = await startApp({ now: () => START });
    const { authenticator } = t.app;
    const refusals: [Record<string, string>, RegExp][] = [
      [{ authorization: 'Bearer x.y.z' }, /external-gh-apim-sub-key/],
      [{ 'external-gh-apim-sub-key': SUB_KEY }, /Missing Authorization/],
      [{ 'external-gh-apim-sub-key': SUB_KEY, authorization: 'Basic abc' }, /Bearer/],
      // Not a token as the issuer spells one: refused without a signature check.
      [{ 'external-gh-apim-sub-key': SUB_KEY, authorization: 'Bearer a.b.c=' }, /invalid or expired/],
    ];
    for (const [headers, message] of refusals) {
      expect(() => authenticator.authenticate(headers)).toThrow(message);
    }
  });
});
