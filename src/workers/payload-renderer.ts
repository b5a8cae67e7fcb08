import { encodeGlobalID } from '@pothos/plugin-relay';
import { Kind, parse, print, type DocumentNode, type FieldNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Principal } from '../shared/principal.js';
import { storePayloadOnce, type EventRow } from '../repositories/webhook-events.js';
import type { Db } from '../shared/db/knex.js';
import { StaffLicensesDocument, TimesheetDocument } from '../generated/operations.js';
import type { Execute } from '../graphql/execute.js';
import { setBounded } from '../shared/bounded-map.js';

/** The license payload: the selection of one element of the REST license list (staffLicenses.graphql) in a node lookup, so the two never drift apart. */
function licenseDocument(): DocumentNode {
  const source = StaffLicensesDocument as unknown as DocumentNode;
  let selection: SelectionSetNode | undefined = source.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)?.selectionSet;
  for (const name of ['staff', 'licenses', 'edges', 'node']) {
    selection = selection?.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === name)?.selectionSet;
  }
  if (!selection) throw new Error('license list operation has no staff.licenses.edges.node selection');
  const fragments = source.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => print(d));
  return parse([`query WebhookLicense($id: ID!) { node(id: $id) { ... on License ${print(selection)} } }`, ...fragments].join('\n'));
}

const TIMESHEET_DOCUMENT = TimesheetDocument as unknown as DocumentNode;
const LICENSE_DOCUMENT = licenseDocument();

/** The documents payloads are rendered with: read operations (test/graphql/compiled-executor.test.ts runs them on both executors). */
export const PAYLOAD_DOCUMENTS: readonly DocumentNode[] = [TIMESHEET_DOCUMENT, LICENSE_DOCUMENT];

/** Bodies kept after they are stored: enough for the deliveries of the events being sent now. */
const RECENT_BODIES = 64;

/**
 * Renders webhook bodies by running the very operations the REST reads run (src/graphql/execute.ts),
 * so `data` is the record exactly as GET returns it. The body is stored on the event the first
 * time, and every later attempt and subscription reuses those bytes.
 */
export class PayloadRenderer {
  /** Renders under way, by event: deliveries of one event sent together share one. */
  private readonly rendering = new Map<number, Promise<string>>();
  /** The last bodies stored, by event, for deliveries read before their event's body was stored (a stored body never changes). */
  private readonly recent = new Map<number, string>();

  constructor(
    private readonly db: Db,
    private readonly execute: Execute,
  ) {}

  payloadOf(row: EventRow): Promise<string> {
    const eventId = Number(row.event_id);
    const known = row.payload ?? this.recent.get(eventId);
    if (known !== undefined) return Promise.resolve(known);
    let render = this.rendering.get(eventId);
    if (!render) this.rendering.set(eventId, (render = this.render(eventId, row)));
    return render;
  }

  private async render(eventId: number, row: EventRow): Promise<string> {
    try {
      const body = JSON.stringify({ type: `${row.event}.${row.event_type}`, timestamp: row.occurred_at, data: await this.record(row) });
      const stored = await storePayloadOnce(this.db, eventId, body);
      setBounded(this.recent, eventId, stored, RECENT_BODIES);
      return stored;
    } finally {
      this.rendering.delete(eventId);
    }
  }

  private async record(row: EventRow): Promise<unknown> {
    const timesheet = row.event === 'timesheet';
    // The same principal shape an API key produces, limited to the record owner's company.
    const principal: Principal = { keyId: 0, keyType: timesheet ? 'timesheet' : 'developer', companyId: Number(row.company_id), customerIds: [], siteIds: [] };
    const result = await this.execute({
      document: timesheet ? TIMESHEET_DOCUMENT : LICENSE_DOCUMENT,
      variables: timesheet ? { timesheetId: Number(row.record_id) } : { id: encodeGlobalID('License', Number(row.record_id)) },
      principal,
    });
    if (result.errors?.length) {
      // The first error is the cause, so a database that was unavailable can be told from a failed rendering.
      throw new Error(`rendering payload failed: ${result.errors.map((e) => e.message).join('; ')}`, { cause: result.errors[0] });
    }
    const data = result.data as { timesheet?: unknown; node?: unknown } | null | undefined;
    return (timesheet ? data?.timesheet : data?.node) ?? null;
  }
}
