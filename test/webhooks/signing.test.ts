import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret } from '../../src/webhooks/signing-secret.js';
import { signature, signatureHeader } from '../../src/webhooks/signing.js';

/** Webhook signatures as the Standard Webhooks reference library computes and checks them. */
describe('webhook signatures', () => {
  it('are what the Standard Webhooks library signs, for any id, time and body (UTF-8 included)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 4_000_000_000 }), fc.string({ unit: 'grapheme', maxLength: 300 }), (id, seconds, body) => {
        const secret = generateSigningSecret();
        expect(signature(secret, id, seconds, body)).toBe(new Webhook(secret).sign(id, new Date(seconds * 1000), body));
      }),
      { numRuns: 200 },
    );
  });

  it('sign with each secret in turn, many secrets after one another, each with its own key', () => {
    const secrets = Array.from({ length: 600 }, () => generateSigningSecret());
    // verify() refuses a timestamp more than five minutes away from now.
    const now = Math.floor(Date.now() / 1000);
    const headers = (id: string, signed: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(now), 'webhook-signature': signed });
    // Twice over more secrets than are kept decoded: every one signs with its own key every time.
    for (const round of [1, 2]) {
      for (const secret of secrets) {
        const signed = signatureHeader([secret], `msg_${round}`, now, '{"a":1}');
        expect(() => new Webhook(secret).verify('{"a":1}', headers(`msg_${round}`, signed))).not.toThrow();
        const another = secrets[(secrets.indexOf(secret) + 1) % secrets.length]!;
        expect(() => new Webhook(another).verify('{"a":1}', headers(`msg_${round}`, signed))).toThrow();
      }
    }
  });
});
