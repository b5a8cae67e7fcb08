import type { WebhookConfig } from '../config.js';
import { AddressGuard } from './address-guard.js';
import { InProcessEventBus, type LiveEventBus } from './live-bus.js';

/** What request handlers need from webhooks: the SSRF guard and the live bus. */
export interface WebhookServices {
  guard: AddressGuard;
  bus: LiveEventBus;
}

export function createWebhookServices(config: WebhookConfig): WebhookServices {
  return { guard: new AddressGuard(config.allowedCidrs), bus: new InProcessEventBus() };
}
