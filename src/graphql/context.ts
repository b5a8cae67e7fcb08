import type { Principal } from '../shared/principal.js';
import type { Db } from '../shared/db/knex.js';
import type { CursorCodec } from '../shared/pagination/cursor-codec.js';
import type { LiveTicket } from '../webhooks/live-streams.js';
import type { WebhookServices } from '../webhooks/services.js';

/** Long-lived things every request may use; created once per app. */
export interface Services {
  db: Db;
  cursors: CursorCodec;
  now: () => Date;
  webhooks: WebhookServices;
}

/** The per-request context. The Principal is resolved before GraphQL runs. */
export interface GraphQLContext {
  principal: Principal;
  services: Services;
  /** The slot and credentials of a live stream; present only on requests admitted as one. */
  liveStream?: LiveTicket;
}
