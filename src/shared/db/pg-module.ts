import { createRequire } from 'node:module';
import type Pg from 'pg';

const require = createRequire(import.meta.url);
let loaded: typeof Pg | undefined;

/**
 * The PostgreSQL driver, loaded the first time a PostgreSQL connection needs it: a gateway on
 * SQLite never does, and the driver's modules would otherwise stay in its memory for nothing.
 */
export function pgDriver(): typeof Pg {
  loaded ??= require('pg') as typeof Pg;
  return loaded;
}
