import type { LimitsConfig, WebhookConfig } from '../config.js';
import { AddressGuard } from './address-guard.js';
import { InProcessEventBus, type LiveEventBus } from './live-bus.js';

/** What request handlers need from webhooks: the SSRF guard, the live bus and the subscription cap. */
export interface WebhookServices {
  guard: AddressGuard;
  bus: LiveEventBus;
  /** MAX_SUBSCRIPTIONS_PER_SUBSCRIBER. */
  maxSubscriptionsPerSubscriber: number;
}

export function createWebhookServices(config: WebhookConfig, limits: Pick<LimitsConfig, 'maxSubscriptionsPerSubscriber'>): WebhookServices {
  return {
    guard: new AddressGuard(config.allowedCidrs),
    bus: new InProcessEventBus(),
    maxSubscriptionsPerSubscriber: limits.maxSubscriptionsPerSubscriber,
  };
}
