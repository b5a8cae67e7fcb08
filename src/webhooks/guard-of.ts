import type { Services } from '../graphql/context.js';
import { AddressGuard } from './address-guard.js';

const STRICT = new AddressGuard();

/** The app's configured guard; harnesses without webhook services get the strict default. */
export function guardOf(services: Services): AddressGuard {
  return services.webhooks?.guard ?? STRICT;
}
