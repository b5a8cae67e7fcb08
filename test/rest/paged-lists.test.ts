import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RestRoute } from '../../src/rest/routes.js';
import { expectEnvelope, expectFailure, type Envelope } from '../support/envelope.js';
import { allowedKey, fixtureOf, pageSized, prepareRouteRecords, requestFor, routeName, type CompanyRecords } from '../support/route-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * What every paged list of the route table does alike (docs/rest-api.md, Envelope): pages of one
 * walked forward and back hold the whole list in order, a page size outside the declared bounds
 * and a forged cursor are 400. Each list's own tests cover its filters and scope.
 */

describe('every paged list of the route table', () => {
  let t: TestApp;
  let own: CompanyRecords;
  const tokens = {} as Record<'developer' | 'timesheet', string>;
  beforeAll(async () => {
    t = await startTestApp();
    tokens.developer = await t.token({ type: 'developer', companyId: 1 });
    tokens.timesheet = await t.token({ type: 'timesheet', companyId: 1 });
    ({ own } = await prepareRouteRecords(t));
  });
  afterAll(() => t.close());

  const paged = routes.filter((r) => r.method === 'GET' && pageSized(r));

  it('the table has paged lists', () => expect(paged.length).toBeGreaterThan(0));

  describe.each(paged.map((r) => [routeName(r), r] as const))('%s', (_name, route: RestRoute) => {
    const get = (query: string) => t.request('GET', requestFor(route, own, query).path, { token: tokens[allowedKey(route)] });
    const idsOf = (env: Envelope) => {
      const items = fixtureOf(route).items;
      if (items === undefined) throw new Error(`the fixture of paged route ${routeName(route)} needs items`);
      return (env.data as unknown[]).map(items.id);
    };
    const pageSize = route.query.find((q) => q.kind === 'pageSize')!;

    it('pages of one, forward and back, hold the whole list in order', async () => {
      const whole = expectEnvelope(await get(`pageSize=${pageSize.maximum}`), 200);
      expect(whole.data.length, 'the seed gives the list records').toBeGreaterThan(0);
      const forward: Envelope[] = [expectEnvelope(await get('pageSize=1'), 200)];
      expect(forward[0]).not.toHaveProperty('prevPageParameter');
      for (let guard = 0; forward.at(-1)!.nextPageParameter && guard < 100; guard++) {
        forward.push(expectEnvelope(await get(forward.at(-1)!.nextPageParameter!), 200));
      }
      expect(forward.map((p) => p.count)).toEqual(forward.map(() => 1));
      expect(forward.flatMap(idsOf)).toEqual(idsOf(whole));
      const back: Envelope[] = [forward.at(-1)!];
      for (let guard = 0; back.at(-1)!.prevPageParameter && guard < 100; guard++) {
        back.push(expectEnvelope(await get(back.at(-1)!.prevPageParameter!), 200));
      }
      expect(back.reverse().flatMap(idsOf)).toEqual(idsOf(whole));
    });

    it('keeps to the declared page sizes', async () => {
      const first = expectEnvelope(await get(''), 200);
      expect(first.count).toBeLessThanOrEqual(pageSize.default!);
      expectFailure(await get('pageSize=0'), 400);
      expectFailure(await get(`pageSize=${pageSize.maximum! + 1}`), 400);
    });

    it('refuses a forged cursor', async () => {
      expectFailure(await get('after=forged'), 400);
      expectFailure(await get('before=forged'), 400);
    });
  });
});
