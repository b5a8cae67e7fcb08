import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { LICENSE_SCALAR_FIELDS, TIMESHEET_FIELDS } from '../support/contract-fields.js';
import { expectData } from './helpers.js';

// The pinned names and shapes of the GraphQL API, read back through introspection over HTTP.

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

function show(ref: TypeRef): string {
  if (ref.kind === 'NON_NULL') return `${show(ref.ofType!)}!`;
  if (ref.kind === 'LIST') return `[${show(ref.ofType!)}]`;
  return ref.name!;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
const TYPE_QUERY = `query ($name: String!) {
  __type(name: $name) {
    kind
    name
    interfaces { name }
    fields { name type { ${TYPE_REF} } args { name type { ${TYPE_REF} } } }
    inputFields { name type { ${TYPE_REF} } }
  }
}`;

interface Field {
  name: string;
  type: string;
  args: Record<string, string>;
}

interface IntrospectedType {
  kind: string;
  interfaces: string[];
  fields: Record<string, Field>;
  inputFields: Record<string, string>;
}

describe('GraphQL schema: pinned names and shapes', () => {
  let t: TestApp;
  let token: string;
  const cache = new Map<string, IntrospectedType | null>();

  async function type(name: string): Promise<IntrospectedType> {
    if (!cache.has(name)) {
      const data = expectData(await t.graphql(token, TYPE_QUERY, { name }));
      const raw = data.__type;
      cache.set(
        name,
        raw && {
          kind: raw.kind,
          interfaces: (raw.interfaces ?? []).map((i: { name: string }) => i.name),
          fields: Object.fromEntries(
            (raw.fields ?? []).map((f: { name: string; type: TypeRef; args: { name: string; type: TypeRef }[] }) => [
              f.name,
              { name: f.name, type: show(f.type), args: Object.fromEntries(f.args.map((a) => [a.name, show(a.type)])) },
            ]),
          ),
          inputFields: Object.fromEntries(
            (raw.inputFields ?? []).map((f: { name: string; type: TypeRef }) => [f.name, show(f.type)]),
          ),
        },
      );
    }
    const found = cache.get(name);
    expect(found, `type ${name} exists`).toBeTruthy();
    return found!;
  }

  /** The named type without list/non-null wrappers, e.g. "[Node]!" → "Node". */
  const bare = (typeName: string) => typeName.replace(/[[\]!]/g, '');

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it('declares the DateTime and JSON scalars', async () => {
    expect((await type('DateTime')).kind).toBe('SCALAR');
    expect((await type('JSON')).kind).toBe('SCALAR');
  });

  it.each(['License', 'Timesheet', 'EventSubscription', 'Staff', 'Subscriber'])(
    '%s is an object type implementing Node with a global id: ID!',
    async (name) => {
      const t1 = await type(name);
      expect(t1.kind).toBe('OBJECT');
      expect(t1.interfaces).toContain('Node');
      expect(t1.fields.id?.type).toBe('ID!');
    },
  );

  it('License has every field of a security license (docs/rest-api.md) with its type', async () => {
    const license = await type('License');
    const expected: Record<(typeof LICENSE_SCALAR_FIELDS)[number], string> = {
      securityLicenseId: 'Int',
      employeeId: 'Int',
      firstName: 'String',
      lastName: 'String',
      state: 'String',
      licenseNumber: 'String',
      status: 'String',
      expiryDate: 'DateTime',
      reminder: 'Int',
      critical: 'Boolean',
      attachmentLink: 'String',
      licenceSector: 'String',
      isInvalidLicense: 'Boolean',
    };
    for (const [field, scalar] of Object.entries(expected)) {
      expect(license.fields[field], `License.${field}`).toBeDefined();
      expect(bare(license.fields[field]!.type), `License.${field}`).toBe(scalar);
    }
    const infoType = bare(license.fields.employeeSecurityLicenseInfo?.type ?? '');
    const info = await type(infoType);
    expect(info.kind).toBe('OBJECT');
    expect(bare(info.fields.employeeSecurityLicenseId?.type ?? '')).toBe('Int');
    expect(bare(info.fields.currentStatus?.type ?? '')).toBe('String');
    expect(bare(info.fields.expiryDate?.type ?? '')).toBe('DateTime');
    expect(bare(info.fields.licenceSector?.type ?? '')).toBe('String');
  });

  it('Timesheet has every field of a timesheet entry (docs/rest-api.md); generic objects are JSON and date-times DateTime', async () => {
    const timesheet = await type('Timesheet');
    const json = ['clockInCoordinates', 'clockOutCoordinates', 'staffSubmittedTimesheetTimes', 'notes', 'allowances', 'scheduleNotes'];
    const ints = ['timesheetId', 'customerApiId', 'siteApiId', 'payBreakTime', 'invoiceBreakTime'];
    const booleans = ['lock'];
    for (const field of TIMESHEET_FIELDS) {
      const expected = json.includes(field)
        ? 'JSON'
        : ints.includes(field)
          ? 'Int'
          : booleans.includes(field)
            ? 'Boolean'
            : /(Time|DateTime)$/.test(field)
              ? 'DateTime'
              : 'String';
      expect(timesheet.fields[field], `Timesheet.${field}`).toBeDefined();
      expect(bare(timesheet.fields[field]!.type), `Timesheet.${field}`).toBe(expected);
    }
  });

  it('EventSubscription has every field of an event subscription (docs/rest-api.md), the integer id as subscriptionId', async () => {
    const sub = await type('EventSubscription');
    const expected: Record<string, string> = {
      subscriptionId: 'Int',
      webhookSubscriberEventFilterId: 'Int',
      uri: 'String',
      isActive: 'Boolean',
      event: 'String',
      eventType: 'String',
      createdDateTime: 'DateTime',
      modifiedDateTime: 'DateTime',
    };
    for (const [field, scalar] of Object.entries(expected)) {
      expect(bare(sub.fields[field]?.type ?? '<missing>'), `EventSubscription.${field}`).toBe(scalar);
    }
    // The global id is not the REST record's integer id.
    expect(sub.fields.id?.type).toBe('ID!');
  });

  it('Query has staff, timesheet, subscriber, node and nodes with the pinned arguments', async () => {
    const query = await type('Query');
    expect(query.fields.staff).toMatchObject({ type: 'Staff', args: { employeeId: 'Int!' } });
    expect(query.fields.timesheet).toMatchObject({ type: 'Timesheet', args: { timesheetId: 'Int!' } });
    expect(query.fields.subscriber).toMatchObject({ type: 'Subscriber', args: { subscriberId: 'Int!' } });
    expect(query.fields.node).toMatchObject({ type: 'Node', args: { id: 'ID!' } });
    expect(query.fields.nodes?.args).toEqual({ ids: '[ID!]!' });
    expect(query.fields.nodes?.type).toBe('[Node]!');
  });

  async function expectConnection(typeName: string, nodeType: string): Promise<void> {
    const connection = await type(typeName);
    expect(bare(connection.fields.pageInfo?.type ?? '')).toBe('PageInfo');
    const edgeType = bare(connection.fields.edges?.type ?? '<missing>');
    const edge = await type(edgeType);
    expect(bare(edge.fields.cursor?.type ?? '')).toBe('String');
    expect(bare(edge.fields.node?.type ?? '')).toBe(nodeType);
    const pageInfo = await type('PageInfo');
    expect(pageInfo.fields.hasNextPage?.type).toBe('Boolean!');
    expect(pageInfo.fields.hasPreviousPage?.type).toBe('Boolean!');
    expect(pageInfo.fields.startCursor?.type).toBe('String');
    expect(pageInfo.fields.endCursor?.type).toBe('String');
  }

  it('Staff.licenses is a Relay connection of License with first/after/last/before/licenseNumber', async () => {
    const staff = await type('Staff');
    const licenses = staff.fields.licenses!;
    expect(licenses).toBeDefined();
    expect(licenses.args).toEqual({ first: 'Int', after: 'String', last: 'Int', before: 'String', licenseNumber: 'String' });
    await expectConnection(bare(licenses.type), 'License');
  });

  it('Subscriber.subscriptions is a Relay connection of EventSubscription', async () => {
    const subscriber = await type('Subscriber');
    const subscriptions = subscriber.fields.subscriptions!;
    expect(subscriptions).toBeDefined();
    expect(Object.keys(subscriptions.args).sort()).toEqual(['after', 'before', 'first', 'last']);
    await expectConnection(bare(subscriptions.type), 'EventSubscription');
  });

  it('Mutation.createEventSubscription takes the pinned input and returns { eventSubscription }', async () => {
    const mutation = await type('Mutation');
    const create = mutation.fields.createEventSubscription!;
    expect(create).toBeDefined();
    expect(Object.keys(create.args)).toEqual(['input']);
    const input = await type(bare(create.args.input!));
    expect(input.kind).toBe('INPUT_OBJECT');
    expect(input.inputFields).toEqual({
      subscriberId: 'Int!',
      uri: 'String!',
      event: 'String',
      eventType: 'String',
      webhookSubscriberEventFilterId: 'Int',
      idempotencyKey: 'String',
    });
    const payload = await type(bare(create.type));
    expect(bare(payload.fields.eventSubscription?.type ?? '')).toBe('EventSubscription');
  });

  it('Mutation.updateEventSubscription takes { subscriptionId, uri, isActive } and returns { eventSubscription }', async () => {
    const mutation = await type('Mutation');
    const update = mutation.fields.updateEventSubscription!;
    expect(update).toBeDefined();
    expect(Object.keys(update.args)).toEqual(['input']);
    const input = await type(bare(update.args.input!));
    expect(input.kind).toBe('INPUT_OBJECT');
    expect(input.inputFields).toEqual({ subscriptionId: 'Int!', uri: 'String', isActive: 'Boolean' });
    const payload = await type(bare(update.type));
    expect(bare(payload.fields.eventSubscription?.type ?? '')).toBe('EventSubscription');
  });
});
