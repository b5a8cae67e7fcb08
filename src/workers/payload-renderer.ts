import { encodeGlobalID } from '@pothos/plugin-relay';
import {
  Kind,
  parse,
  type DocumentNode,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Principal } from '../shared/principal.js';
import { storePayloadOnce, type UnrenderedEvent } from '../repositories/webhook-events.js';
import type { Db } from '../shared/db/knex.js';
import { StaffLicensesDocument, TimesheetDocument } from '../generated/operations.js';
import type { Execute } from '../graphql/execute.js';
import { setBounded } from '../shared/bounded-map.js';


function field(selection: SelectionSetNode | undefined, name: string): FieldNode {
  const found = selection?.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === name);
  if (!found) throw new Error(`license list operation has no ${name} field`);
  return found;
}

/**
 * The license payload uses exactly the selection of one element of the REST license list
 * (staff → licenses → edges → node in staffLicenses.graphql), lifted into a node lookup, so
 * the two can never drift apart.
 */
function licenseDocument(): DocumentNode {
  const source = StaffLicensesDocument as unknown as DocumentNode;
  const operation = source.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const node = field(field(field(field(operation?.selectionSet, 'staff').selectionSet, 'licenses').selectionSet, 'edges').selectionSet, 'node');
  const skeleton = parse('query WebhookLicense($id: ID!) { node(id: $id) { ... on License { __typename } } }');
  const op = skeleton.definitions[0] as OperationDefinitionNode;
  const nodeField = op.selectionSet.selections[0] as FieldNode;
  const fragment = nodeField.selectionSet?.selections[0];
  if (!fragment || fragment.kind !== Kind.INLINE_FRAGMENT || !node.selectionSet) throw new Error('bad license skeleton');
  const inline = { ...fragment, selectionSet: node.selectionSet };
  const withSelection = { ...nodeField, selectionSet: { ...nodeField.selectionSet!, selections: [inline] } };
  const fragments = source.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  return {
    ...skeleton,
    definitions: [{ ...op, selectionSet: { ...op.selectionSet, selections: [withSelection] } }, ...fragments],
  };
}

const LICENSE_DOCUMENT = licenseDocument();

/** The documents payloads are rendered with: read operations (test/graphql/compiled-executor.test.ts runs them on both executors). */
export const PAYLOAD_DOCUMENTS: readonly DocumentNode[] = [TimesheetDocument as unknown as DocumentNode, LICENSE_DOCUMENT];

/** The same principal shape an API key produces, limited to the record owner's company. */
function systemPrincipal(keyType: Principal['keyType'], companyId: number): Principal {
  return { keyId: 0, keyType, companyId, customerIds: [], siteIds: [] };
}

/** Bodies kept after they are stored: enough for the deliveries of the events being sent now. */
const RECENT_BODIES = 64;

/**
 * Renders webhook bodies by running the very operations the REST reads run, through the one
 * execution path (src/graphql/execute.ts), so `data` is the record exactly as GET returns it.
 * The body is stored on the event the first time, and every later attempt and subscription
 * reuses those bytes; deliveries of one event sent at the same time share one rendering.
 */
export class PayloadRenderer {
  /** Renders under way, by event: deliveries of one event sent together share one. */
  private readonly rendering = new Map<number, Promise<string>>();
  /** The last RECENT_BODIES bodies stored, by event, for deliveries read before their event's body was stored. */
  private readonly recent = new Map<number, string>();

  constructor(
    private readonly db: Db,
    private readonly execute: Execute,
  ) {}

  payloadOf(event: UnrenderedEvent, stored: string | null): Promise<string> {
    if (stored !== null) return Promise.resolve(stored);
    const known = this.recent.get(event.eventId);
    if (known !== undefined) return Promise.resolve(known);
    const under = this.rendering.get(event.eventId);
    if (under) return under;
    return this.track(event.eventId, this.render(event));
  }

  /** Holds a rendering under way for its event, and remembers its body once it has one. */
  private track(eventId: number, rendering: Promise<string>): Promise<string> {
    const render = rendering.then(
      (body) => {
        this.rendering.delete(eventId);
        this.remember(eventId, body);
        return body;
      },
      (error: unknown) => {
        this.rendering.delete(eventId);
        throw error;
      },
    );
    this.rendering.set(eventId, render);
    return render;
  }

  private async render(event: UnrenderedEvent): Promise<string> {
    return storePayloadOnce(this.db, event.eventId, await this.bodyOf(event));
  }

  private async bodyOf(event: UnrenderedEvent): Promise<string> {
    return JSON.stringify({
      type: `${event.event}.${event.eventType}`,
      timestamp: event.occurredAt,
      data: await this.record(event),
    });
  }

  /** A stored body never changes, so keeping the last few is the same as reading them again. */
  private remember(eventId: number, body: string): void {
    setBounded(this.recent, eventId, body, RECENT_BODIES);
  }

  private async record(event: UnrenderedEvent): Promise<unknown> {
    if (event.event === 'timesheet') {
      const data = await this.run(TimesheetDocument as unknown as DocumentNode, { timesheetId: event.recordId }, systemPrincipal('timesheet', event.companyId));
      return (data as { timesheet?: unknown } | null)?.timesheet ?? null;
    }
    const data = await this.run(LICENSE_DOCUMENT, { id: encodeGlobalID('License', event.recordId) }, systemPrincipal('developer', event.companyId));
    return (data as { node?: unknown } | null)?.node ?? null;
  }

  private async run(document: DocumentNode, variables: Record<string, unknown>, principal: Principal): Promise<unknown> {
    const result = await this.execute({ document, variables, principal });
    if (result.errors?.length) {
      // The first error is the cause, so a database that was unavailable can be told from a failed rendering.
      throw new Error(`rendering payload failed: ${result.errors.map((e) => e.message).join('; ')}`, { cause: result.errors[0] });
    }
    return result.data ?? null;
  }
}
