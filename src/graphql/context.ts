import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/knex.js';
import type { CursorCodec } from '../pagination/cursor-codec.js';
import type { LiveTicket } from '../webhooks/live-streams.js';
import type { WebhookServices } from '../webhooks/service.js';

/** Long-lived things every request may use; created once per app. */
export interface Services {
  db: Db;
  cursors: CursorCodec;
  now: () => Date;
  /** Optional so lightweight harnesses (bench) can build Services without webhooks. */
  webhooks?: WebhookServices;
}

/** The per-request context. The Principal is resolved before GraphQL runs. */
export interface GraphQLContext {
  principal: Principal;
  services: Services;
  /** The slot and credentials of a live stream; present only on requests admitted as one. */
  liveStream?: LiveTicket;
}
