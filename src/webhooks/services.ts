import type { LimitsConfig, WebhookConfig } from '../config.js';
import { AddressGuard } from './address-guard.js';
import { InProcessEventBus, type LiveEventBus } from './live-bus.js';

/** What request handlers need from webhooks: the SSRF guard, the live bus and MAX_SUBSCRIPTIONS_PER_SUBSCRIBER. */
export function createWebhookServices(config: WebhookConfig, limits: Pick<LimitsConfig, 'maxSubscriptionsPerSubscriber'>) {
  const bus: LiveEventBus = new InProcessEventBus();
  return { guard: new AddressGuard(config.allowedCidrs), bus, maxSubscriptionsPerSubscriber: limits.maxSubscriptionsPerSubscriber };
}

export type WebhookServices = ReturnType<typeof createWebhookServices>;
