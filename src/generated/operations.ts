/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An ISO 8601 date-time, always returned in UTC ("2026-01-31T08:00:00.000Z"). */
  DateTime: { input: string; output: string; }
  /** A generic JSON value whose inner fields the schema does not fix. */
  JSON: { input: unknown; output: unknown; }
};

export type CreateEventSubscriptionInput = {
  /** With eventType: which of the subscriber’s pairs to subscribe to. */
  event?: InputMaybe<Scalars['String']['input']>;
  eventType?: InputMaybe<Scalars['String']['input']>;
  /** Makes the create safe to repeat: within 24 hours the same key (per API key) with the same input returns the subscription as first created, without creating another; with other input it is a CONFLICT. 1–255 printable ASCII characters. */
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  subscriberId: Scalars['Int']['input'];
  /** Absolute http(s) URL that receives the events. */
  uri: Scalars['String']['input'];
  /** Alternatively, the event filter by id. */
  webhookSubscriberEventFilterId?: InputMaybe<Scalars['Int']['input']>;
};

/** A customer of the calling key’s company; a timesheet key sees its own customers, or those of its sites, or all when it has neither. */
export type Customer = Node & {
  __typename?: 'Customer';
  customerApiId: Scalars['Int']['output'];
  customerName: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** The customer’s sites within the calling key’s scope, by siteApiId. */
  sites: CustomerSitesConnection;
};


/** A customer of the calling key’s company; a timesheet key sees its own customers, or those of its sites, or all when it has neither. */
export type CustomerSitesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type CustomerSitesConnection = {
  __typename?: 'CustomerSitesConnection';
  edges: Array<CustomerSitesConnectionEdge>;
  pageInfo: PageInfo;
};

export type CustomerSitesConnectionEdge = {
  __typename?: 'CustomerSitesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Site;
};

export type DeleteEventSubscriptionInput = {
  subscriptionId: Scalars['Int']['input'];
};

/** The license as the employee record sees it (docs/rest-api.md, Security license). */
export type EmployeeSecurityLicenseInfo = {
  __typename?: 'EmployeeSecurityLicenseInfo';
  currentStatus?: Maybe<Scalars['String']['output']>;
  employeeSecurityLicenseId: Scalars['Int']['output'];
  expiryDate?: Maybe<Scalars['DateTime']['output']>;
  licenceSector?: Maybe<Scalars['String']['output']>;
};

/** An event/eventType pair a subscriber may subscribe a URI to. */
export type EventFilter = {
  __typename?: 'EventFilter';
  event: Scalars['String']['output'];
  eventType: Scalars['String']['output'];
  webhookSubscriberEventFilterId: Scalars['Int']['output'];
};

/** Binds a delivery URI to one event/eventType pair of a subscriber (docs/rest-api.md, Event subscription). */
export type EventSubscription = Node & {
  __typename?: 'EventSubscription';
  createdDateTime: Scalars['DateTime']['output'];
  /** The delivery log, newest first. */
  deliveries: EventSubscriptionDeliveriesConnection;
  event: Scalars['String']['output'];
  eventType: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  isActive: Scalars['Boolean']['output'];
  modifiedDateTime: Scalars['DateTime']['output'];
  subscriberId: Scalars['Int']['output'];
  subscriptionId: Scalars['Int']['output'];
  uri: Scalars['String']['output'];
  webhookSubscriberEventFilterId: Scalars['Int']['output'];
};


/** Binds a delivery URI to one event/eventType pair of a subscriber (docs/rest-api.md, Event subscription). */
export type EventSubscriptionDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type EventSubscriptionDeliveriesConnection = {
  __typename?: 'EventSubscriptionDeliveriesConnection';
  edges: Array<EventSubscriptionDeliveriesConnectionEdge>;
  pageInfo: PageInfo;
};

export type EventSubscriptionDeliveriesConnectionEdge = {
  __typename?: 'EventSubscriptionDeliveriesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: WebhookDelivery;
};

export type EventSubscriptionPayload = {
  __typename?: 'EventSubscriptionPayload';
  eventSubscription: EventSubscription;
};

/** A security license on file for one employee (docs/rest-api.md, Security license). */
export type License = Node & {
  __typename?: 'License';
  attachmentLink?: Maybe<Scalars['String']['output']>;
  critical?: Maybe<Scalars['Boolean']['output']>;
  employeeId: Scalars['Int']['output'];
  employeeSecurityLicenseInfo: EmployeeSecurityLicenseInfo;
  expiryDate?: Maybe<Scalars['DateTime']['output']>;
  firstName?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  isInvalidLicense?: Maybe<Scalars['Boolean']['output']>;
  lastName?: Maybe<Scalars['String']['output']>;
  licenceSector?: Maybe<Scalars['String']['output']>;
  licenseNumber?: Maybe<Scalars['String']['output']>;
  /** Days before expiry to remind. */
  reminder?: Maybe<Scalars['Int']['output']>;
  securityLicenseId: Scalars['Int']['output'];
  state?: Maybe<Scalars['String']['output']>;
  status?: Maybe<Scalars['String']['output']>;
};

/** The same body a webhook receiver gets. */
export type LiveWebhookEvent = {
  __typename?: 'LiveWebhookEvent';
  /** The record as the REST read returns it. */
  data?: Maybe<Scalars['JSON']['output']>;
  timestamp: Scalars['DateTime']['output'];
  /** "<event>.<eventType>" */
  type: Scalars['String']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Subscribes a delivery URI to one of a subscriber’s event/eventType pairs. New subscriptions are active. */
  createEventSubscription?: Maybe<EventSubscriptionPayload>;
  /** Deletes a subscription: it is no longer read, listed or delivered to, and its pending deliveries become cancelled. Returns the subscription as it was. */
  deleteEventSubscription?: Maybe<EventSubscriptionPayload>;
  /** Queues a delivery again, due now, with the same webhook-id and body; the retry schedule starts over. */
  redeliverWebhook?: Maybe<RedeliverWebhookPayload>;
  /** Changes the delivery URI or the active state of a subscription; at least one must be given. */
  updateEventSubscription?: Maybe<EventSubscriptionPayload>;
};


export type MutationCreateEventSubscriptionArgs = {
  input: CreateEventSubscriptionInput;
};


export type MutationDeleteEventSubscriptionArgs = {
  input: DeleteEventSubscriptionInput;
};


export type MutationRedeliverWebhookArgs = {
  input: RedeliverWebhookInput;
};


export type MutationUpdateEventSubscriptionArgs = {
  input: UpdateEventSubscriptionInput;
};

export type Node = {
  id: Scalars['ID']['output'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type Query = {
  __typename?: 'Query';
  /** The customers within the calling key’s scope, by customerApiId. A cursor keeps the page size it was issued with. */
  customers: QueryCustomersConnection;
  /** One subscription of the calling key’s company (developer keys). */
  eventSubscription?: Maybe<EventSubscription>;
  node?: Maybe<Node>;
  nodes: Array<Maybe<Node>>;
  /** The sites within the calling key’s scope, by siteApiId; customerId keeps one customer’s (none when outside the scope). A cursor keeps the filter and page size it was issued with. */
  sites: QuerySitesConnection;
  /** One employee of the caller’s company (developer keys). */
  staff?: Maybe<Staff>;
  /** The employees of the caller’s company ordered by employeeId (developer keys). A cursor keeps the filter and page size it was issued with. */
  staffs: QueryStaffsConnection;
  /** One webhook subscriber of the caller’s company (developer keys). */
  subscriber?: Maybe<Subscriber>;
  /** The delivery log of a subscription of the calling key’s company, newest first (developer keys); a deleted subscription’s log included, its pending deliveries shown as cancelled. */
  subscriptionDeliveries?: Maybe<QuerySubscriptionDeliveriesConnection>;
  /** One timesheet entry within the calling key’s company, customers and sites (timesheet keys). */
  timesheet?: Maybe<Timesheet>;
  /** The timesheet entries the calling key may read (its company, and its customers and sites when it has any), ordered by timesheetId. A cursor keeps the filter and page size it was issued with. */
  timesheets: QueryTimesheetsConnection;
  /** The event catalog: every event/eventType pair shiftgate can deliver. */
  webhookEvents: Array<WebhookEvent>;
};


export type QueryCustomersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryEventSubscriptionArgs = {
  subscriptionId: Scalars['Int']['input'];
};


export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


export type QueryNodesArgs = {
  ids: Array<Scalars['ID']['input']>;
};


export type QuerySitesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  customerId?: InputMaybe<Scalars['Int']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryStaffArgs = {
  employeeId: Scalars['Int']['input'];
};


export type QueryStaffsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<StaffFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QuerySubscriberArgs = {
  subscriberId: Scalars['Int']['input'];
};


export type QuerySubscriptionDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  subscriptionId: Scalars['Int']['input'];
};


export type QueryTimesheetArgs = {
  timesheetId: Scalars['Int']['input'];
};


export type QueryTimesheetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<TimesheetFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type QueryCustomersConnection = {
  __typename?: 'QueryCustomersConnection';
  edges: Array<QueryCustomersConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryCustomersConnectionEdge = {
  __typename?: 'QueryCustomersConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Customer;
};

export type QuerySitesConnection = {
  __typename?: 'QuerySitesConnection';
  edges: Array<QuerySitesConnectionEdge>;
  pageInfo: PageInfo;
};

export type QuerySitesConnectionEdge = {
  __typename?: 'QuerySitesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Site;
};

export type QueryStaffsConnection = {
  __typename?: 'QueryStaffsConnection';
  edges: Array<QueryStaffsConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryStaffsConnectionEdge = {
  __typename?: 'QueryStaffsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Staff;
};

export type QuerySubscriptionDeliveriesConnection = {
  __typename?: 'QuerySubscriptionDeliveriesConnection';
  edges: Array<QuerySubscriptionDeliveriesConnectionEdge>;
  pageInfo: PageInfo;
};

export type QuerySubscriptionDeliveriesConnectionEdge = {
  __typename?: 'QuerySubscriptionDeliveriesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: WebhookDelivery;
};

export type QueryTimesheetsConnection = {
  __typename?: 'QueryTimesheetsConnection';
  edges: Array<QueryTimesheetsConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryTimesheetsConnectionEdge = {
  __typename?: 'QueryTimesheetsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Timesheet;
};

export type RedeliverWebhookInput = {
  deliveryId: Scalars['Int']['input'];
  subscriptionId: Scalars['Int']['input'];
};

export type RedeliverWebhookPayload = {
  __typename?: 'RedeliverWebhookPayload';
  delivery: WebhookDelivery;
};

/** A site of a customer of the calling key’s company; a timesheet key sees its own sites, or those of its customers, or all when it has neither. */
export type Site = Node & {
  __typename?: 'Site';
  /** The site’s customer; null (NOT_FOUND) when the key’s scope does not reach it. */
  customer?: Maybe<Customer>;
  customerApiId: Scalars['Int']['output'];
  customerName: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  siteApiId: Scalars['Int']['output'];
  siteName: Scalars['String']['output'];
  /** The site’s timesheet entries the calling key may read (timesheet keys), ordered by timesheetId; the filter narrows them further (a different siteId matches nothing). */
  timesheets?: Maybe<SiteTimesheetsConnection>;
};


/** A site of a customer of the calling key’s company; a timesheet key sees its own sites, or those of its customers, or all when it has neither. */
export type SiteTimesheetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<TimesheetFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type SiteTimesheetsConnection = {
  __typename?: 'SiteTimesheetsConnection';
  edges: Array<SiteTimesheetsConnectionEdge>;
  pageInfo: PageInfo;
};

export type SiteTimesheetsConnectionEdge = {
  __typename?: 'SiteTimesheetsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Timesheet;
};

/** An employee of the calling key’s company. */
export type Staff = Node & {
  __typename?: 'Staff';
  email?: Maybe<Scalars['String']['output']>;
  employeeId: Scalars['Int']['output'];
  employeeReferenceNumber?: Maybe<Scalars['String']['output']>;
  firstName?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  lastName?: Maybe<Scalars['String']['output']>;
  /** The employee’s licenses ordered by securityLicenseId. A cursor keeps the filter and page size it was issued with. */
  licenses: StaffLicensesConnection;
  mobile?: Maybe<Scalars['String']['output']>;
  staffId?: Maybe<Scalars['String']['output']>;
  subcontractorCompany?: Maybe<Scalars['String']['output']>;
};


/** An employee of the calling key’s company. */
export type StaffLicensesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  licenseNumber?: InputMaybe<Scalars['String']['input']>;
};

/** Staff list filters; all optional and exact, all given ones must hold. */
export type StaffFilter = {
  /** Employees with exactly this email address. */
  email?: InputMaybe<Scalars['String']['input']>;
  /** The employee with exactly this reference number. */
  employeeReferenceNumber?: InputMaybe<Scalars['String']['input']>;
  /** The employee with exactly this staff id. */
  staffId?: InputMaybe<Scalars['String']['input']>;
};

export type StaffLicensesConnection = {
  __typename?: 'StaffLicensesConnection';
  edges: Array<StaffLicensesConnectionEdge>;
  pageInfo: PageInfo;
};

export type StaffLicensesConnectionEdge = {
  __typename?: 'StaffLicensesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: License;
};

/** A webhook subscriber of the calling key’s company. */
export type Subscriber = Node & {
  __typename?: 'Subscriber';
  /** The pairs this subscriber can subscribe to. */
  eventFilters: Array<EventFilter>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  subscriberId: Scalars['Int']['output'];
  /** The subscriber’s subscriptions by id; the first 1000 when no page arguments are given. */
  subscriptions: SubscriberSubscriptionsConnection;
};


/** A webhook subscriber of the calling key’s company. */
export type SubscriberSubscriptionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type SubscriberSubscriptionsConnection = {
  __typename?: 'SubscriberSubscriptionsConnection';
  edges: Array<SubscriberSubscriptionsConnectionEdge>;
  pageInfo: PageInfo;
};

export type SubscriberSubscriptionsConnectionEdge = {
  __typename?: 'SubscriberSubscriptionsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: EventSubscription;
};

export type Subscription = {
  __typename?: 'Subscription';
  /** Streams events of the caller’s company as they happen (server-sent events), optionally one event or pair. */
  events: LiveWebhookEvent;
};


export type SubscriptionEventsArgs = {
  event?: InputMaybe<Scalars['String']['input']>;
  eventType?: InputMaybe<Scalars['String']['input']>;
};

/** One timesheet entry (docs/rest-api.md, Timesheet entry). Visible only when its company, customer and site are within the calling key. */
export type Timesheet = Node & {
  __typename?: 'Timesheet';
  allowances?: Maybe<Scalars['JSON']['output']>;
  approvedBy?: Maybe<Scalars['String']['output']>;
  approvedDateTime?: Maybe<Scalars['DateTime']['output']>;
  clockInCoordinates?: Maybe<Scalars['JSON']['output']>;
  clockOutCoordinates?: Maybe<Scalars['JSON']['output']>;
  customerApiId: Scalars['Int']['output'];
  customerApprovalStatus?: Maybe<Scalars['String']['output']>;
  customerApprovedDateTime?: Maybe<Scalars['DateTime']['output']>;
  customerApprover?: Maybe<Scalars['String']['output']>;
  customerName?: Maybe<Scalars['String']['output']>;
  email?: Maybe<Scalars['String']['output']>;
  employeeId: Scalars['String']['output'];
  employeeReferenceNumber?: Maybe<Scalars['String']['output']>;
  entryType?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** Minutes. */
  invoiceBreakTime?: Maybe<Scalars['Int']['output']>;
  invoiceEndTime?: Maybe<Scalars['DateTime']['output']>;
  invoiceStartTime?: Maybe<Scalars['DateTime']['output']>;
  lock?: Maybe<Scalars['Boolean']['output']>;
  mobile?: Maybe<Scalars['String']['output']>;
  notes?: Maybe<Scalars['JSON']['output']>;
  /** Minutes. */
  payBreakTime?: Maybe<Scalars['Int']['output']>;
  payEndTime?: Maybe<Scalars['DateTime']['output']>;
  payStartTime?: Maybe<Scalars['DateTime']['output']>;
  paygroup?: Maybe<Scalars['String']['output']>;
  position?: Maybe<Scalars['String']['output']>;
  scheduleNotes?: Maybe<Scalars['JSON']['output']>;
  scheduledEndTime?: Maybe<Scalars['DateTime']['output']>;
  scheduledStartTime?: Maybe<Scalars['DateTime']['output']>;
  service?: Maybe<Scalars['String']['output']>;
  siteApiId: Scalars['Int']['output'];
  siteName?: Maybe<Scalars['String']['output']>;
  staffId?: Maybe<Scalars['String']['output']>;
  staffName?: Maybe<Scalars['String']['output']>;
  staffSubmittedTimesheetTimes?: Maybe<Scalars['JSON']['output']>;
  status?: Maybe<Scalars['String']['output']>;
  subcontractorCompany?: Maybe<Scalars['String']['output']>;
  timeclockBreakEndTime?: Maybe<Scalars['DateTime']['output']>;
  timeclockBreakStartTime?: Maybe<Scalars['DateTime']['output']>;
  timeclockEndTime?: Maybe<Scalars['DateTime']['output']>;
  timeclockStartTime?: Maybe<Scalars['DateTime']['output']>;
  timesheetId: Scalars['Int']['output'];
};

/** Timesheet list filters; all optional, all given ones must hold. A value outside the key’s scope matches nothing. */
export type TimesheetFilter = {
  /** Entries of this customer’s sites. */
  customerId?: InputMaybe<Scalars['Int']['input']>;
  /** Entries of this employee. */
  employeeId?: InputMaybe<Scalars['Int']['input']>;
  /** Entries scheduled to start at or after this time. */
  from?: InputMaybe<Scalars['DateTime']['input']>;
  /** Entries created or changed (the entry, or the site, customer or staff member it shows) at or after this time, to the millisecond. For incremental sync: pass the time noted before the previous read (docs/graphql.md, Incremental sync). */
  modifiedSince?: InputMaybe<Scalars['DateTime']['input']>;
  /** Entries of this site. */
  siteId?: InputMaybe<Scalars['Int']['input']>;
  /** Entries with exactly this status. */
  status?: InputMaybe<Scalars['String']['input']>;
  /** Entries scheduled to start before this time. */
  to?: InputMaybe<Scalars['DateTime']['input']>;
};

export type UpdateEventSubscriptionInput = {
  /** Deliver (true) or pause (false). */
  isActive?: InputMaybe<Scalars['Boolean']['input']>;
  subscriptionId: Scalars['Int']['input'];
  /** New delivery URI. */
  uri?: InputMaybe<Scalars['String']['input']>;
};

/** One event sent (or to be sent) to one subscription. */
export type WebhookDelivery = {
  __typename?: 'WebhookDelivery';
  /** Attempts since the delivery was (re)queued. */
  attemptCount: Scalars['Int']['output'];
  /** The latest 50 attempts, oldest first. */
  attempts: Array<WebhookDeliveryAttempt>;
  completedDateTime?: Maybe<Scalars['DateTime']['output']>;
  createdDateTime: Scalars['DateTime']['output'];
  deliveryId: Scalars['Int']['output'];
  event: Scalars['String']['output'];
  eventType: Scalars['String']['output'];
  nextAttemptAt?: Maybe<Scalars['DateTime']['output']>;
  /** pending, delivered, failed, or cancelled (its subscription was deleted). */
  state: Scalars['String']['output'];
  /** The webhook-id header; the same on every attempt. */
  webhookId: Scalars['String']['output'];
};

/** One HTTP attempt of a delivery. */
export type WebhookDeliveryAttempt = {
  __typename?: 'WebhookDeliveryAttempt';
  attemptedAt: Scalars['DateTime']['output'];
  durationMs: Scalars['Int']['output'];
  /** Why the attempt failed; at most a short excerpt of the receiver’s response. */
  error?: Maybe<Scalars['String']['output']>;
  /** Null when no response arrived. */
  httpStatus?: Maybe<Scalars['Int']['output']>;
};

/** One event/eventType pair of the catalog that subscriptions and event filters may use. */
export type WebhookEvent = {
  __typename?: 'WebhookEvent';
  description: Scalars['String']['output'];
  event: Scalars['String']['output'];
  eventType: Scalars['String']['output'];
};

export type CreateSubscriptionMutationVariables = Exact<{
  subscriberId: number;
  uri: string;
  event?: string | null | undefined;
  eventType?: string | null | undefined;
  webhookSubscriberEventFilterId?: number | null | undefined;
  idempotencyKey?: string | null | undefined;
}>;


export type CreateSubscriptionMutation = { createEventSubscription: { eventSubscription: { webhookSubscriberEventFilterId: number, uri: string, isActive: boolean, event: string, eventType: string, createdDateTime: string, modifiedDateTime: string, id: number } } | null };

export type CustomersQueryVariables = Exact<{
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
}>;


export type CustomersQuery = { customers: { pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { customerApiId: number, customerName: string } }> } };

export type DeleteSubscriptionMutationVariables = Exact<{
  subscriptionId: number;
}>;


export type DeleteSubscriptionMutation = { deleteEventSubscription: { eventSubscription: { webhookSubscriberEventFilterId: number, uri: string, isActive: boolean, event: string, eventType: string, createdDateTime: string, modifiedDateTime: string, id: number } } | null };

export type EventSubscriptionQueryVariables = Exact<{
  subscriptionId: number;
}>;


export type EventSubscriptionQuery = { eventSubscription: { webhookSubscriberEventFilterId: number, uri: string, isActive: boolean, event: string, eventType: string, createdDateTime: string, modifiedDateTime: string, id: number } | null };

export type ContractSubscriptionFragment = { webhookSubscriberEventFilterId: number, uri: string, isActive: boolean, event: string, eventType: string, createdDateTime: string, modifiedDateTime: string, id: number };

export type ContractTimesheetFragment = { timesheetId: number, customerName: string | null, customerApiId: number, siteName: string | null, siteApiId: number, staffId: string | null, staffName: string | null, employeeId: string, employeeReferenceNumber: string | null, email: string | null, mobile: string | null, subcontractorCompany: string | null, entryType: string | null, position: string | null, service: string | null, paygroup: string | null, scheduledStartTime: string | null, scheduledEndTime: string | null, timeclockStartTime: string | null, clockInCoordinates: unknown, timeclockBreakStartTime: string | null, timeclockBreakEndTime: string | null, timeclockEndTime: string | null, clockOutCoordinates: unknown, staffSubmittedTimesheetTimes: unknown, payStartTime: string | null, payEndTime: string | null, payBreakTime: number | null, invoiceStartTime: string | null, invoiceEndTime: string | null, invoiceBreakTime: number | null, notes: unknown, allowances: unknown, status: string | null, approvedBy: string | null, approvedDateTime: string | null, customerApprovalStatus: string | null, customerApprover: string | null, customerApprovedDateTime: string | null, lock: boolean | null, scheduleNotes: unknown };

export type PageCursorsFragment = { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null };

export type RedeliverMutationVariables = Exact<{
  subscriptionId: number;
  deliveryId: number;
}>;


export type RedeliverMutation = { redeliverWebhook: { delivery: { deliveryId: number, webhookId: string, event: string, eventType: string, state: string, attemptCount: number, nextAttemptAt: string | null, createdDateTime: string, completedDateTime: string | null, attempts: Array<{ attemptedAt: string, httpStatus: number | null, durationMs: number, error: string | null }> } } | null };

export type SitesQueryVariables = Exact<{
  customerId?: number | null | undefined;
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
}>;


export type SitesQuery = { sites: { pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { siteApiId: number, siteName: string, customerApiId: number, customerName: string } }> } };

export type StaffLicensesQueryVariables = Exact<{
  employeeId: number;
  licenseNumber?: string | null | undefined;
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
}>;


export type StaffLicensesQuery = { staff: { licenses: { pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { securityLicenseId: number, employeeId: number, firstName: string | null, lastName: string | null, state: string | null, licenseNumber: string | null, status: string | null, expiryDate: string | null, reminder: number | null, critical: boolean | null, attachmentLink: string | null, licenceSector: string | null, isInvalidLicense: boolean | null, employeeSecurityLicenseInfo: { employeeSecurityLicenseId: number, currentStatus: string | null, expiryDate: string | null, licenceSector: string | null } } }> } } | null };

export type StaffsQueryVariables = Exact<{
  staffId?: string | null | undefined;
  employeeReferenceNumber?: string | null | undefined;
  email?: string | null | undefined;
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
}>;


export type StaffsQuery = { staffs: { pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { employeeId: number, staffId: string | null, firstName: string | null, lastName: string | null, employeeReferenceNumber: string | null, email: string | null, mobile: string | null, subcontractorCompany: string | null } }> } };

export type SubscriberSubscriptionsQueryVariables = Exact<{
  subscriberId: number;
}>;


export type SubscriberSubscriptionsQuery = { subscriber: { subscriptions: { edges: Array<{ node: { webhookSubscriberEventFilterId: number, uri: string, isActive: boolean, event: string, eventType: string, createdDateTime: string, modifiedDateTime: string, id: number } }> } } | null };

export type SubscriptionDeliveriesQueryVariables = Exact<{
  id: number;
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
}>;


export type SubscriptionDeliveriesQuery = { subscriptionDeliveries: { pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { deliveryId: number, webhookId: string, event: string, eventType: string, state: string, attemptCount: number, nextAttemptAt: string | null, createdDateTime: string, completedDateTime: string | null, attempts: Array<{ attemptedAt: string, httpStatus: number | null, durationMs: number, error: string | null }> } }> } | null };

export type ContractDeliveryFragment = { deliveryId: number, webhookId: string, event: string, eventType: string, state: string, attemptCount: number, nextAttemptAt: string | null, createdDateTime: string, completedDateTime: string | null, attempts: Array<{ attemptedAt: string, httpStatus: number | null, durationMs: number, error: string | null }> };

export type TimesheetQueryVariables = Exact<{
  timesheetId: number;
}>;


export type TimesheetQuery = { timesheet: { timesheetId: number, customerName: string | null, customerApiId: number, siteName: string | null, siteApiId: number, staffId: string | null, staffName: string | null, employeeId: string, employeeReferenceNumber: string | null, email: string | null, mobile: string | null, subcontractorCompany: string | null, entryType: string | null, position: string | null, service: string | null, paygroup: string | null, scheduledStartTime: string | null, scheduledEndTime: string | null, timeclockStartTime: string | null, clockInCoordinates: unknown, timeclockBreakStartTime: string | null, timeclockBreakEndTime: string | null, timeclockEndTime: string | null, clockOutCoordinates: unknown, staffSubmittedTimesheetTimes: unknown, payStartTime: string | null, payEndTime: string | null, payBreakTime: number | null, invoiceStartTime: string | null, invoiceEndTime: string | null, invoiceBreakTime: number | null, notes: unknown, allowances: unknown, status: string | null, approvedBy: string | null, approvedDateTime: string | null, customerApprovalStatus: string | null, customerApprover: string | null, customerApprovedDateTime: string | null, lock: boolean | null, scheduleNotes: unknown } | null };

export type TimesheetsQueryVariables = Exact<{
  siteId?: number | null | undefined;
  customerId?: number | null | undefined;
  employeeId?: number | null | undefined;
  status?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  modifiedSince?: string | null | undefined;
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
}>;


export type TimesheetsQuery = { timesheets: { pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, edges: Array<{ node: { timesheetId: number, customerName: string | null, customerApiId: number, siteName: string | null, siteApiId: number, staffId: string | null, staffName: string | null, employeeId: string, employeeReferenceNumber: string | null, email: string | null, mobile: string | null, subcontractorCompany: string | null, entryType: string | null, position: string | null, service: string | null, paygroup: string | null, scheduledStartTime: string | null, scheduledEndTime: string | null, timeclockStartTime: string | null, clockInCoordinates: unknown, timeclockBreakStartTime: string | null, timeclockBreakEndTime: string | null, timeclockEndTime: string | null, clockOutCoordinates: unknown, staffSubmittedTimesheetTimes: unknown, payStartTime: string | null, payEndTime: string | null, payBreakTime: number | null, invoiceStartTime: string | null, invoiceEndTime: string | null, invoiceBreakTime: number | null, notes: unknown, allowances: unknown, status: string | null, approvedBy: string | null, approvedDateTime: string | null, customerApprovalStatus: string | null, customerApprover: string | null, customerApprovedDateTime: string | null, lock: boolean | null, scheduleNotes: unknown } }> } };

export type UpdateSubscriptionMutationVariables = Exact<{
  subscriptionId: number;
  uri?: string | null | undefined;
  isActive?: boolean | null | undefined;
}>;


export type UpdateSubscriptionMutation = { updateEventSubscription: { eventSubscription: { webhookSubscriberEventFilterId: number, uri: string, isActive: boolean, event: string, eventType: string, createdDateTime: string, modifiedDateTime: string, id: number } } | null };

export type WebhookEventsQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEventsQuery = { webhookEvents: Array<{ event: string, eventType: string, description: string }> };

export const ContractSubscriptionFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractSubscription"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"subscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}},{"kind":"Field","name":{"kind":"Name","value":"uri"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"modifiedDateTime"}}]}}]} as unknown as DocumentNode<ContractSubscriptionFragment, unknown>;
export const ContractTimesheetFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractTimesheet"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Timesheet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"timesheetId"}},{"kind":"Field","name":{"kind":"Name","value":"customerName"}},{"kind":"Field","name":{"kind":"Name","value":"customerApiId"}},{"kind":"Field","name":{"kind":"Name","value":"siteName"}},{"kind":"Field","name":{"kind":"Name","value":"siteApiId"}},{"kind":"Field","name":{"kind":"Name","value":"staffId"}},{"kind":"Field","name":{"kind":"Name","value":"staffName"}},{"kind":"Field","name":{"kind":"Name","value":"employeeId"}},{"kind":"Field","name":{"kind":"Name","value":"employeeReferenceNumber"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"mobile"}},{"kind":"Field","name":{"kind":"Name","value":"subcontractorCompany"}},{"kind":"Field","name":{"kind":"Name","value":"entryType"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"paygroup"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"clockInCoordinates"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockBreakStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockBreakEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"clockOutCoordinates"}},{"kind":"Field","name":{"kind":"Name","value":"staffSubmittedTimesheetTimes"}},{"kind":"Field","name":{"kind":"Name","value":"payStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"payEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"payBreakTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceBreakTime"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","name":{"kind":"Name","value":"allowances"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"}},{"kind":"Field","name":{"kind":"Name","value":"approvedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprovalStatus"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprover"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprovedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"lock"}},{"kind":"Field","name":{"kind":"Name","value":"scheduleNotes"}}]}}]} as unknown as DocumentNode<ContractTimesheetFragment, unknown>;
export const PageCursorsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageCursors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<PageCursorsFragment, unknown>;
export const ContractDeliveryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractDelivery"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookId"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"completedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attemptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]} as unknown as DocumentNode<ContractDeliveryFragment, unknown>;
export const CreateSubscriptionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateSubscription"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"subscriberId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uri"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"event"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"eventType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createEventSubscription"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"subscriberId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"subscriberId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"uri"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uri"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"event"},"value":{"kind":"Variable","name":{"kind":"Name","value":"event"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"eventType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"eventType"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventSubscription"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractSubscription"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractSubscription"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"subscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}},{"kind":"Field","name":{"kind":"Name","value":"uri"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"modifiedDateTime"}}]}}]} as unknown as DocumentNode<CreateSubscriptionMutation, CreateSubscriptionMutationVariables>;
export const CustomersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Customers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageCursors"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerApiId"}},{"kind":"Field","name":{"kind":"Name","value":"customerName"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageCursors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<CustomersQuery, CustomersQueryVariables>;
export const DeleteSubscriptionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteSubscription"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteEventSubscription"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"subscriptionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventSubscription"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractSubscription"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractSubscription"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"subscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}},{"kind":"Field","name":{"kind":"Name","value":"uri"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"modifiedDateTime"}}]}}]} as unknown as DocumentNode<DeleteSubscriptionMutation, DeleteSubscriptionMutationVariables>;
export const EventSubscriptionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EventSubscription"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventSubscription"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"subscriptionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractSubscription"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractSubscription"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"subscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}},{"kind":"Field","name":{"kind":"Name","value":"uri"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"modifiedDateTime"}}]}}]} as unknown as DocumentNode<EventSubscriptionQuery, EventSubscriptionQueryVariables>;
export const RedeliverDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Redeliver"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeliverWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"subscriptionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"deliveryId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"delivery"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractDelivery"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractDelivery"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookId"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"completedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attemptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]} as unknown as DocumentNode<RedeliverMutation, RedeliverMutationVariables>;
export const SitesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Sites"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageCursors"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"siteApiId"}},{"kind":"Field","name":{"kind":"Name","value":"siteName"}},{"kind":"Field","name":{"kind":"Name","value":"customerApiId"}},{"kind":"Field","name":{"kind":"Name","value":"customerName"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageCursors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<SitesQuery, SitesQueryVariables>;
export const StaffLicensesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"StaffLicenses"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"employeeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"licenseNumber"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"staff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"employeeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"employeeId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"licenses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"licenseNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"licenseNumber"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageCursors"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"securityLicenseId"}},{"kind":"Field","name":{"kind":"Name","value":"employeeId"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"licenseNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"expiryDate"}},{"kind":"Field","name":{"kind":"Name","value":"reminder"}},{"kind":"Field","name":{"kind":"Name","value":"critical"}},{"kind":"Field","name":{"kind":"Name","value":"attachmentLink"}},{"kind":"Field","name":{"kind":"Name","value":"licenceSector"}},{"kind":"Field","name":{"kind":"Name","value":"isInvalidLicense"}},{"kind":"Field","name":{"kind":"Name","value":"employeeSecurityLicenseInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"employeeSecurityLicenseId"}},{"kind":"Field","name":{"kind":"Name","value":"currentStatus"}},{"kind":"Field","name":{"kind":"Name","value":"expiryDate"}},{"kind":"Field","name":{"kind":"Name","value":"licenceSector"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageCursors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<StaffLicensesQuery, StaffLicensesQueryVariables>;
export const StaffsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Staffs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"staffId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"employeeReferenceNumber"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"email"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"staffs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"staffId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"staffId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"employeeReferenceNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"employeeReferenceNumber"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"email"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageCursors"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"employeeId"}},{"kind":"Field","name":{"kind":"Name","value":"staffId"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"employeeReferenceNumber"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"mobile"}},{"kind":"Field","name":{"kind":"Name","value":"subcontractorCompany"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageCursors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<StaffsQuery, StaffsQueryVariables>;
export const SubscriberSubscriptionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SubscriberSubscriptions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"subscriberId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"subscriber"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"subscriberId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"subscriberId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"subscriptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractSubscription"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractSubscription"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"subscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}},{"kind":"Field","name":{"kind":"Name","value":"uri"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"modifiedDateTime"}}]}}]} as unknown as DocumentNode<SubscriberSubscriptionsQuery, SubscriberSubscriptionsQueryVariables>;
export const SubscriptionDeliveriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SubscriptionDeliveries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"subscriptionDeliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"subscriptionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageCursors"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractDelivery"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageCursors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractDelivery"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookId"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"completedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attemptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]} as unknown as DocumentNode<SubscriptionDeliveriesQuery, SubscriptionDeliveriesQueryVariables>;
export const TimesheetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Timesheet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timesheetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"timesheet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"timesheetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timesheetId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractTimesheet"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractTimesheet"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Timesheet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"timesheetId"}},{"kind":"Field","name":{"kind":"Name","value":"customerName"}},{"kind":"Field","name":{"kind":"Name","value":"customerApiId"}},{"kind":"Field","name":{"kind":"Name","value":"siteName"}},{"kind":"Field","name":{"kind":"Name","value":"siteApiId"}},{"kind":"Field","name":{"kind":"Name","value":"staffId"}},{"kind":"Field","name":{"kind":"Name","value":"staffName"}},{"kind":"Field","name":{"kind":"Name","value":"employeeId"}},{"kind":"Field","name":{"kind":"Name","value":"employeeReferenceNumber"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"mobile"}},{"kind":"Field","name":{"kind":"Name","value":"subcontractorCompany"}},{"kind":"Field","name":{"kind":"Name","value":"entryType"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"paygroup"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"clockInCoordinates"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockBreakStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockBreakEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"clockOutCoordinates"}},{"kind":"Field","name":{"kind":"Name","value":"staffSubmittedTimesheetTimes"}},{"kind":"Field","name":{"kind":"Name","value":"payStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"payEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"payBreakTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceBreakTime"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","name":{"kind":"Name","value":"allowances"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"}},{"kind":"Field","name":{"kind":"Name","value":"approvedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprovalStatus"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprover"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprovedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"lock"}},{"kind":"Field","name":{"kind":"Name","value":"scheduleNotes"}}]}}]} as unknown as DocumentNode<TimesheetQuery, TimesheetQueryVariables>;
export const TimesheetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Timesheets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"employeeId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"modifiedSince"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"timesheets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"siteId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"employeeId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"employeeId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"modifiedSince"},"value":{"kind":"Variable","name":{"kind":"Name","value":"modifiedSince"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageCursors"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractTimesheet"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageCursors"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractTimesheet"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Timesheet"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"timesheetId"}},{"kind":"Field","name":{"kind":"Name","value":"customerName"}},{"kind":"Field","name":{"kind":"Name","value":"customerApiId"}},{"kind":"Field","name":{"kind":"Name","value":"siteName"}},{"kind":"Field","name":{"kind":"Name","value":"siteApiId"}},{"kind":"Field","name":{"kind":"Name","value":"staffId"}},{"kind":"Field","name":{"kind":"Name","value":"staffName"}},{"kind":"Field","name":{"kind":"Name","value":"employeeId"}},{"kind":"Field","name":{"kind":"Name","value":"employeeReferenceNumber"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"mobile"}},{"kind":"Field","name":{"kind":"Name","value":"subcontractorCompany"}},{"kind":"Field","name":{"kind":"Name","value":"entryType"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"paygroup"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"scheduledEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"clockInCoordinates"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockBreakStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockBreakEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"timeclockEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"clockOutCoordinates"}},{"kind":"Field","name":{"kind":"Name","value":"staffSubmittedTimesheetTimes"}},{"kind":"Field","name":{"kind":"Name","value":"payStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"payEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"payBreakTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceStartTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceEndTime"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceBreakTime"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","name":{"kind":"Name","value":"allowances"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"}},{"kind":"Field","name":{"kind":"Name","value":"approvedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprovalStatus"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprover"}},{"kind":"Field","name":{"kind":"Name","value":"customerApprovedDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"lock"}},{"kind":"Field","name":{"kind":"Name","value":"scheduleNotes"}}]}}]} as unknown as DocumentNode<TimesheetsQuery, TimesheetsQueryVariables>;
export const UpdateSubscriptionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateSubscription"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uri"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"isActive"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateEventSubscription"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"subscriptionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"subscriptionId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"uri"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uri"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"isActive"},"value":{"kind":"Variable","name":{"kind":"Name","value":"isActive"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventSubscription"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContractSubscription"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContractSubscription"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"subscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"webhookSubscriberEventFilterId"}},{"kind":"Field","name":{"kind":"Name","value":"uri"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"createdDateTime"}},{"kind":"Field","name":{"kind":"Name","value":"modifiedDateTime"}}]}}]} as unknown as DocumentNode<UpdateSubscriptionMutation, UpdateSubscriptionMutationVariables>;
export const WebhookEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEvents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]} as unknown as DocumentNode<WebhookEventsQuery, WebhookEventsQueryVariables>;