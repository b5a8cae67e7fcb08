import Database from 'better-sqlite3';
import Fastify from 'fastify';
import mercurius, { type IResolvers } from 'mercurius';
import { argument, failChild, serveAsChild } from './child-ipc.js';
import { authenticate, KEY_SQL, KeyCache, TIMESHEET_SQL, timesheetData, timesheetInScope, type Principal, type Row } from './raw-common.js';

/**
 * The GraphQL server a user would write instead of the gateway for the timesheet read:
 * fastify + mercurius with graphql-jit (`jit: 1`), the schema as SDL text (only what the read
 * needs), a plain resolver over a prepared better-sqlite3 statement, and the raw baseline's
 * credential checks and caches (raw-common.ts). No logger, mercurius defaults otherwise.
 */

declare module 'mercurius' {
  interface MercuriusContext {
    principal: Principal;
  }
}

const SCHEMA = /* GraphQL */ `
  scalar DateTime
  scalar JSON

  type Query {
    timesheet(timesheetId: Int!): Timesheet
  }

  type Timesheet {
    timesheetId: Int!
    customerName: String
    customerApiId: Int!
    siteName: String
    siteApiId: Int!
    staffId: String
    staffName: String
    employeeId: String!
    employeeReferenceNumber: String
    email: String
    mobile: String
    subcontractorCompany: String
    entryType: String
    position: String
    service: String
    paygroup: String
    scheduledStartTime: DateTime
    scheduledEndTime: DateTime
    timeclockStartTime: DateTime
    clockInCoordinates: JSON
    timeclockBreakStartTime: DateTime
    timeclockBreakEndTime: DateTime
    timeclockEndTime: DateTime
    clockOutCoordinates: JSON
    staffSubmittedTimesheetTimes: JSON
    payStartTime: DateTime
    payEndTime: DateTime
    payBreakTime: Int
    invoiceStartTime: DateTime
    invoiceEndTime: DateTime
    invoiceBreakTime: Int
    notes: JSON
    allowances: JSON
    status: String
    approvedBy: String
    approvedDateTime: DateTime
    customerApprovalStatus: String
    customerApprover: String
    customerApprovedDateTime: DateTime
    lock: Boolean
    scheduleNotes: JSON
  }
`;

async function main(): Promise<void> {
  const db = new Database(argument('db'));
  db.pragma('journal_mode = WAL');
  let statements = 0;
  const get = (statement: Database.Statement, ...params: unknown[]): Row | undefined => {
    statements++;
    return statement.get(...params) as Row | undefined;
  };
  const keyRow = db.prepare(KEY_SQL);
  const timesheetRow = db.prepare(TIMESHEET_SQL);
  // The key row is read synchronously, so authenticate answers at once.
  const keys = new KeyCache((keyId) => get(keyRow, keyId));

  const resolvers: IResolvers = {
    Query: {
      timesheet: (_root, args: { timesheetId: number }, context) => {
        if (context.principal.keyType !== 'timesheet') throw new Error('This API key type may not access this resource');
        const r = get(timesheetRow, args.timesheetId);
        if (!r || !timesheetInScope(context.principal, r)) throw new Error(`Timesheet ${args.timesheetId} not found`);
        return timesheetData(r);
      },
    },
  };

  const app = Fastify({ logger: false });
  await app.register(mercurius, {
    schema: SCHEMA,
    resolvers,
    jit: 1,
    context: (request) => ({ principal: authenticate(request.headers, keys) as Principal }),
  });
  await app.ready();
  await serveAsChild(app.server, () => statements, async () => {
    await app.close();
    db.close();
  });
}

main().catch(failChild);
