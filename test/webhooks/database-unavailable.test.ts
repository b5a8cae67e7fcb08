import { describe, expect, it } from 'vitest';
import { maskErrorWith } from '../../src/graphql/yoga.js';
import type { Execute } from '../../src/graphql/execute.js';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { Dispatcher } from '../../src/workers/dispatcher.js';
import { PayloadRenderer } from '../../src/workers/payload-renderer.js';
import { appWithoutDispatcher, backlogAt, deliveriesOf, ONE_SEND_PER_DESTINATION, waitFor } from './support.js';

describe('a webhook body rendered while the database is unavailable', () => {
  const app = appWithoutDispatcher(ONE_SEND_PER_DESTINATION);

  it('is not charged to the receiver as a failed attempt: the delivery stays pending, unrecorded', async () => {
    const { t, receiver } = app;
    const subscriptionId = await backlogAt(t, `${receiver.url}/unavailable`, 7101, 1);
    const [delivery] = await deliveriesOf(t.app.db, subscriptionId);
    // The rendering query fails as a lost PostgreSQL connection makes it fail, masked as the gateway masks it.
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const mask = maskErrorWith(() => undefined);
    let renders = 0;
    const unavailable: Execute = async () => {
      renders++;
      return { errors: [mask(lost, 'Unexpected error.') as never] };
    };
    const config = t.app.config.webhooks;
    const dispatcher = new Dispatcher({ db: t.app.db, config, guard: new AddressGuard(config.allowedCidrs), renderer: new PayloadRenderer(t.app.db, unavailable) });
    dispatcher.start();
    try {
      await waitFor(() => renders > 0, 'a rendering');
    } finally {
      await dispatcher.stop();
    }
    expect(await t.app.db('webhook_attempts').where({ delivery_id: delivery!.id })).toEqual([]);
    const [after] = await deliveriesOf(t.app.db, subscriptionId);
    expect(after).toMatchObject({ state: 'pending', attempt_count: 0 });
    expect(receiver.received).toHaveLength(0);
  });
});
