import type { ApiClient } from './http-client.js';
import type { Credentials } from './credentials.js';
import { COMPANIES, type CompanyId, type DataChanger, type SoakSubscriber } from './data.js';
import type { SubscriptionBook } from './subscriptions.js';
import { sleep } from './time.js';

const LICENSES = `query Licenses($employeeId: Int!, $first: Int, $after: String) {
  staff(employeeId: $employeeId) {
    licenses(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { securityLicenseId licenseNumber status expiryDate reminder } }
    }
  }
}`;
const TIMESHEET = `query Timesheet($timesheetId: Int!) {
  timesheet(timesheetId: $timesheetId) { timesheetId siteName staffName status notes approvedBy }
}`;
const SUBSCRIPTIONS = `query Subscriptions($subscriberId: Int!) {
  subscriber(subscriberId: $subscriberId) { subscriptions { edges { node { subscriptionId uri isActive event eventType } } } }
}`;

const pick = <T>(items: readonly T[]): T => {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
};

/**
 * A few workers, each sending one request at a time with a pause in between: REST and
 * GraphQL reads of licenses, timesheets and subscriptions, and now and then a subscription
 * update. Modest on purpose: the run looks for leaks and failures over time, not for speed.
 */
export class Traffic {
  private stopping = false;
  private readonly workers: Promise<void>[] = [];

  constructor(
    private readonly client: ApiClient,
    private readonly credentials: Credentials,
    private readonly data: DataChanger,
    private readonly subscribers: readonly SoakSubscriber[],
    private readonly book: SubscriptionBook,
    private readonly options: { workers: number; pauseMs: number },
  ) {}

  start(): void {
    this.stopping = false;
    for (let i = 0; i < this.options.workers; i++) this.workers.push(this.work());
  }

  /** Lets every worker finish the request in hand. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.workers.splice(0));
  }

  private async work(): Promise<void> {
    while (!this.stopping) {
      await this.once(pick(COMPANIES));
      await sleep(this.options.pauseMs * (0.5 + Math.random()));
    }
  }

  private subscriberOf(companyId: CompanyId): SoakSubscriber {
    const subscriber = this.subscribers.find((s) => s.companyId === companyId);
    if (!subscriber) throw new Error(`no subscriber for company ${companyId}`);
    return subscriber;
  }

  private async once(companyId: CompanyId): Promise<void> {
    const developer = this.credentials.token(companyId, 'developer');
    const roll = Math.random();
    if (roll < 0.18) {
      const employeeId = pick(this.data.staffIds(companyId));
      const first = await this.client.call('GET /api/external/staffs/:id/licenses', 'GET', `/api/external/staffs/${employeeId}/licenses?pageSize=10`, {
        token: developer,
        expect: 200,
      });
      const next = (first?.body as { nextPageParameter?: unknown } | null)?.nextPageParameter;
      if (typeof next === 'string' && next !== '' && Math.random() < 0.5) {
        await this.client.call('GET /api/external/staffs/:id/licenses', 'GET', `/api/external/staffs/${employeeId}/licenses?${next}`, {
          token: developer,
          expect: 200,
        });
      }
    } else if (roll < 0.36) {
      const timesheetId = pick(this.data.timesheetIds(companyId));
      await this.client.call('GET /api/external/timesheets/:id', 'GET', `/api/external/timesheets/${timesheetId}`, {
        token: this.credentials.token(companyId, 'timesheet'),
        expect: 200,
      });
    } else if (roll < 0.46) {
      const subscriberId = this.subscriberOf(companyId).id;
      await this.client.call('GET /api/webhook/subscribers/:id/subscriptions', 'GET', `/api/webhook/subscribers/${subscriberId}/subscriptions`, {
        token: developer,
        expect: 200,
      });
    } else if (roll < 0.62) {
      const employeeId = pick(this.data.staffIds(companyId));
      const data = await this.client.graphql('POST /graphql staff.licenses', developer, LICENSES, { employeeId, first: 10 });
      const page = (data?.staff as { licenses?: { pageInfo?: { hasNextPage?: boolean; endCursor?: string } } } | null)?.licenses?.pageInfo;
      if (page?.hasNextPage && page.endCursor && Math.random() < 0.5) {
        await this.client.graphql('POST /graphql staff.licenses', developer, LICENSES, { employeeId, first: 10, after: page.endCursor });
      }
    } else if (roll < 0.8) {
      const timesheetId = pick(this.data.timesheetIds(companyId));
      await this.client.graphql('POST /graphql timesheet', this.credentials.token(companyId, 'timesheet'), TIMESHEET, { timesheetId });
    } else if (roll < 0.9) {
      await this.client.graphql('POST /graphql subscriber.subscriptions', developer, SUBSCRIPTIONS, { subscriberId: this.subscriberOf(companyId).id });
    } else {
      await this.book.updateOne();
    }
  }
}
