import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure, type Envelope } from '../support/envelope.js';
import { LICENSE_FIELDS } from '../support/contract-fields.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest } from './http.js';

const PATH = '/api/external/staffs/1001/licenses';
/** Staff 1001's 45 seeded licenses, in securityLicenseId order. */
const ALL_IDS = Array.from({ length: 45 }, (_, i) => 50001 + i);

const LICENSE_KEYS = [...LICENSE_FIELDS].sort();
const INFO_KEYS = ['employeeSecurityLicenseId', 'currentStatus', 'expiryDate', 'licenceSector'].sort();

function ids(env: Envelope): number[] {
  return (env.data as { securityLicenseId: number }[]).map((l) => l.securityLicenseId);
}

/** Replaces one character in the middle of `text` with a different one of the same alphabet. */
function flipChar(text: string, index: number): string {
  const c = text[index];
  const replacement = c === 'A' ? 'B' : 'A';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('GET /api/external/staffs/{id}/licenses', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  const get = (path: string) => t.request('GET', path, { token });

  it('returns license records with exactly the fields of a security license (docs/rest-api.md)', async () => {
    const env = expectEnvelope(await get(`${PATH}?pageSize=2`), 200);
    expect(env.count).toBe(2);
    const [first] = env.data;
    expect(Object.keys(first).sort()).toEqual(LICENSE_KEYS);
    expect(Object.keys(first.employeeSecurityLicenseInfo).sort()).toEqual(INFO_KEYS);
    expect(first).toEqual({
      securityLicenseId: 50001,
      employeeId: 1001,
      firstName: 'Alex',
      lastName: 'Nguyen',
      state: 'NSW',
      licenseNumber: 'NSW-0001',
      status: 'Active',
      expiryDate: '2027-06-30T00:00:00.000Z',
      reminder: 30,
      critical: false,
      attachmentLink: 'https://files.example.com/licenses/50001.pdf',
      licenceSector: 'Security',
      isInvalidLicense: false,
      employeeSecurityLicenseInfo: {
        employeeSecurityLicenseId: 50001,
        currentStatus: 'Active',
        expiryDate: '2027-06-30T00:00:00.000Z',
        licenceSector: 'Security',
      },
    });
    expect(env.data[1].critical).toBe(true);
  });

  it('defaults to 20 per page, ordered by securityLicenseId, with only a next page on the first', async () => {
    const env = expectEnvelope(await get(PATH), 200);
    expect(ids(env)).toEqual(ALL_IDS.slice(0, 20));
    expect(env.nextPageParameter).toEqual(expect.any(String));
    expect(env).not.toHaveProperty('prevPageParameter');
  });

  it('accepts pageSize 1 and 100', async () => {
    expect(ids(expectEnvelope(await get(`${PATH}?pageSize=1`), 200))).toEqual([50001]);
    const all = expectEnvelope(await get(`${PATH}?pageSize=100`), 200);
    expect(ids(all)).toEqual(ALL_IDS);
    expect(all).not.toHaveProperty('nextPageParameter');
    expect(all).not.toHaveProperty('prevPageParameter');
  });

  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e1', ' 5'])('rejects pageSize=%j with 400', async (value) => {
    expectFailure(await get(`${PATH}?pageSize=${encodeURIComponent(value)}`), 400);
  });

  it('filters by exact licenseNumber', async () => {
    const env = expectEnvelope(await get(`${PATH}?licenseNumber=NSW-0007`), 200);
    expect(ids(env)).toEqual([50007]);
    expect(env).not.toHaveProperty('nextPageParameter');
    expect(env).not.toHaveProperty('prevPageParameter');
    const partial = expectEnvelope(await get(`${PATH}?licenseNumber=NSW-000`), 200);
    expect(partial.data).toEqual([]);
    expect(partial.count).toBe(0);
  });

  it('rejects an unknown query parameter with 400', async () => {
    expectFailure(await get(`${PATH}?sort=desc`), 400);
  });

  async function walkForward(send: (nextPageParameter: string) => Promise<{ status: number; headers: any; body: unknown }>) {
    const pages: Envelope[] = [expectEnvelope(await get(`${PATH}?pageSize=10`), 200)];
    for (let guard = 0; guard < 10; guard++) {
      const next = pages[pages.length - 1]?.nextPageParameter;
      if (next === undefined) break;
      pages.push(expectEnvelope(await send(next), 200));
    }
    return pages;
  }

  function checkForwardWalk(pages: Envelope[]) {
    expect(pages.map((p) => p.count)).toEqual([10, 10, 10, 10, 5]);
    expect(pages.flatMap(ids)).toEqual(ALL_IDS);
    pages.forEach((page, i) => {
      expect(Boolean(page.prevPageParameter), `page ${i} has a previous page`).toBe(i > 0);
      expect(Boolean(page.nextPageParameter), `page ${i} has a next page`).toBe(i < pages.length - 1);
    });
  }

  it('walks all 45 licenses forward with nextPageParameter appended to the query string', async () => {
    checkForwardWalk(await walkForward((next) => get(`${PATH}?${next}`)));
  });

  it('walks all 45 licenses forward with nextPageParameter sent as the GET body', async () => {
    checkForwardWalk(await walkForward((next) => rawRequest(t, 'GET', PATH, { token, body: next })));
  });

  it('accepts the page parameter as a JSON string body too', async () => {
    const first = expectEnvelope(await get(`${PATH}?pageSize=10`), 200);
    const res = await rawRequest(t, 'GET', PATH, {
      token,
      body: JSON.stringify(first.nextPageParameter),
      headers: { 'content-type': 'application/json' },
    });
    expect(ids(expectEnvelope(res, 200))).toEqual(ALL_IDS.slice(10, 20));
  });

  it('reads a chunked GET body and body-less GETs alike on one kept-alive connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    // A body goes chunked, without a Content-Length; a GET without a body declares none.
    const send = (path: string, body?: string) =>
      new Promise<Envelope>((resolve, reject) => {
        const headers: Record<string, string> = { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` };
        if (body !== undefined) headers['transfer-encoding'] = 'chunked';
        const req = httpRequest(new URL(path, t.baseUrl), { method: 'GET', agent, headers }, (res) => {
          sockets.add(res.socket);
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            try {
              resolve(expectEnvelope({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: JSON.parse(text) }, 200));
            } catch (error) {
              reject(error as Error);
            }
          });
        });
        req.on('error', reject);
        if (body !== undefined) {
          expect(req.getHeader('content-length')).toBeUndefined();
          req.write(body);
        }
        req.end();
      });
    try {
      const first = await send(`${PATH}?pageSize=10`);
      expect(ids(await send(`${PATH}?pageSize=10`))).toEqual(ALL_IDS.slice(0, 10));
      expect(ids(await send(PATH, first.nextPageParameter as string))).toEqual(ALL_IDS.slice(10, 20));
      expect(ids(await send(`${PATH}?pageSize=10`))).toEqual(ALL_IDS.slice(0, 10));
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('walks back from the last page with prevPageParameter', async () => {
    const forward = await walkForward((next) => get(`${PATH}?${next}`));
    const last = forward[forward.length - 1]!;
    const pages: Envelope[] = [last];
    for (let guard = 0; guard < 10; guard++) {
      const prev = pages[pages.length - 1]?.prevPageParameter;
      if (prev === undefined) break;
      pages.push(expectEnvelope(await get(`${PATH}?${prev}`), 200));
    }
    expect(pages.map((p) => p.count)).toEqual([5, 10, 10, 10, 10]);
    expect(pages.map(ids)).toEqual(forward.map(ids).reverse());
    const firstPage = pages[pages.length - 1]!;
    expect(firstPage).not.toHaveProperty('prevPageParameter');
    expect(firstPage.nextPageParameter).toEqual(expect.any(String));
    // And forward again from there: the next page of the first page is the second.
    expect(ids(expectEnvelope(await get(`${PATH}?${firstPage.nextPageParameter}`), 200))).toEqual(ALL_IDS.slice(10, 20));
  });

  it('walks back with prevPageParameter sent as the GET body', async () => {
    const second = expectEnvelope(await get(`${PATH}?${expectEnvelope(await get(`${PATH}?pageSize=10`), 200).nextPageParameter}`), 200);
    const back = expectEnvelope(await rawRequest(t, 'GET', PATH, { token, body: second.prevPageParameter! }), 200);
    expect(ids(back)).toEqual(ALL_IDS.slice(0, 10));
  });

  it('keeps the filter and page size in the cursor', async () => {
    await t.app.db('licenses').insert(
      [1, 2, 3].map((n) => ({
        security_license_id: 80000 + n,
        employee_id: 1001,
        state: 'NSW',
        license_number: 'DUP-1',
        status: 'Active',
      })),
    );
    try {
      const first = expectEnvelope(await get(`${PATH}?licenseNumber=DUP-1&pageSize=2`), 200);
      expect(ids(first)).toEqual([80001, 80002]);
      const next = expectEnvelope(await get(`${PATH}?${first.nextPageParameter}`), 200);
      expect(ids(next)).toEqual([80003]);
      expect(next).not.toHaveProperty('nextPageParameter');
      // Restating the same filter alongside the cursor is fine.
      const restated = expectEnvelope(await get(`${PATH}?licenseNumber=DUP-1&${first.nextPageParameter}`), 200);
      expect(ids(restated)).toEqual([80003]);
    } finally {
      await t.app.db('licenses').where('security_license_id', '>', 80000).delete();
    }
  });

  describe('a page whose records moved away after its cursor was issued', () => {
    const STAFF_1002 = '/api/external/staffs/1002/licenses';

    /** Licenses of staff 1002 numbered `number`, ids from..from+count-1; returns the ids. */
    async function insertLicenses(from: number, count: number, number: string): Promise<number[]> {
      const all = Array.from({ length: count }, (_, i) => from + i);
      await t.app.db('licenses').insert(
        all.map((id) => ({ security_license_id: id, employee_id: 1002, state: 'VIC', license_number: number, status: 'Active' })),
      );
      return all;
    }

    it('deleted: the empty page still has the prevPageParameter back to the records before the cursor', async () => {
      const all = await insertLicenses(62001, 6, 'REST-GONE');
      const one = expectEnvelope(await get(`${STAFF_1002}?licenseNumber=REST-GONE&pageSize=3`), 200);
      expect(ids(one)).toEqual(all.slice(0, 3));
      await t.app.db('licenses').whereIn('security_license_id', all.slice(3)).delete();

      const two = expectEnvelope(await get(`${STAFF_1002}?${one.nextPageParameter}`), 200);
      expect(two.data).toEqual([]);
      expect(two.count).toBe(0);
      expect(two).not.toHaveProperty('nextPageParameter');
      expect(two.prevPageParameter).toMatch(/^before=/);
      const back = expectEnvelope(await get(`${STAFF_1002}?${two.prevPageParameter}`), 200);
      expect(ids(back)).toEqual(all.slice(0, 3));
      expect(back).not.toHaveProperty('prevPageParameter');
      // Sent as the GET body, as docs/rest-api.md allows, it leads to the same page.
      expect(ids(expectEnvelope(await rawRequest(t, 'GET', STAFF_1002, { token, body: two.prevPageParameter! }), 200))).toEqual(
        all.slice(0, 3),
      );
    });

    it('no longer matching the filter: the same way back', async () => {
      const all = await insertLicenses(62011, 4, 'REST-MOVING');
      const one = expectEnvelope(await get(`${STAFF_1002}?licenseNumber=REST-MOVING&pageSize=2`), 200);
      await t.app.db('licenses').whereIn('security_license_id', all.slice(2)).update({ license_number: 'REST-MOVED' });
      const two = expectEnvelope(await get(`${STAFF_1002}?${one.nextPageParameter}`), 200);
      expect(two.data).toEqual([]);
      expect(ids(expectEnvelope(await get(`${STAFF_1002}?${two.prevPageParameter}`), 200))).toEqual(all.slice(0, 2));
    });

    it('walking backwards: the empty page has the nextPageParameter forward to the records after the cursor', async () => {
      const all = await insertLicenses(62021, 6, 'REST-BACK');
      const first = expectEnvelope(await get(`${STAFF_1002}?licenseNumber=REST-BACK&pageSize=3`), 200);
      const second = expectEnvelope(await get(`${STAFF_1002}?${first.nextPageParameter}`), 200);
      expect(ids(second)).toEqual(all.slice(3));
      await t.app.db('licenses').whereIn('security_license_id', all.slice(0, 3)).delete();

      const empty = expectEnvelope(await get(`${STAFF_1002}?${second.prevPageParameter}`), 200);
      expect(empty.data).toEqual([]);
      expect(empty).not.toHaveProperty('prevPageParameter');
      expect(empty.nextPageParameter).toMatch(/^after=/);
      expect(ids(expectEnvelope(await get(`${STAFF_1002}?${empty.nextPageParameter}`), 200))).toEqual(all.slice(3));
    });

    it('everything gone: the empty page has neither parameter', async () => {
      const all = await insertLicenses(62031, 4, 'REST-ALLGONE');
      const one = expectEnvelope(await get(`${STAFF_1002}?licenseNumber=REST-ALLGONE&pageSize=2`), 200);
      await t.app.db('licenses').whereIn('security_license_id', all).delete();
      const two = expectEnvelope(await get(`${STAFF_1002}?${one.nextPageParameter}`), 200);
      expect(two.data).toEqual([]);
      expect(two).not.toHaveProperty('prevPageParameter');
      expect(two).not.toHaveProperty('nextPageParameter');
    });
  });

  describe('rejects bad cursors with 400', () => {
    let next: string;
    beforeAll(async () => {
      next = expectEnvelope(await get(`${PATH}?pageSize=10`), 200).nextPageParameter!;
    });

    function cursorOf(parameter: string): string {
      expect(parameter).toMatch(/^after=/);
      return parameter.slice('after='.length);
    }

    it.each(['garbage', 'a.b', 'a.b.c', '', '...'])('after=%j', async (value) => {
      expectFailure(await get(`${PATH}?after=${encodeURIComponent(value)}`), 400);
    });

    it('a cursor with one character of its body changed', async () => {
      const cursor = cursorOf(next);
      expectFailure(await get(`${PATH}?after=${flipChar(cursor, 3)}`), 400);
    });

    it('a cursor with one character of its signature changed', async () => {
      const cursor = cursorOf(next);
      expectFailure(await get(`${PATH}?after=${flipChar(cursor, cursor.length - 2)}`), 400);
    });

    it('a tampered cursor sent as the body', async () => {
      const cursor = cursorOf(next);
      expectFailure(await rawRequest(t, 'GET', PATH, { token, body: `after=${flipChar(cursor, 3)}` }), 400);
    });

    it('a cursor issued for another staff member', async () => {
      expectFailure(await get(`/api/external/staffs/1002/licenses?${next}`), 400);
      expectFailure(await rawRequest(t, 'GET', '/api/external/staffs/1002/licenses', { token, body: next }), 400);
    });

    it('a cursor whose filter conflicts with the given licenseNumber', async () => {
      expectFailure(await get(`${PATH}?licenseNumber=NSW-0015&${next}`), 400);
    });

    it('a filtered cursor used with a different licenseNumber', async () => {
      const prev = expectEnvelope(await get(`${PATH}?${next}`), 200).prevPageParameter!;
      expectFailure(await get(`${PATH}?licenseNumber=NSW-0002&${prev}`), 400);
    });

    it('after and before together', async () => {
      const prev = expectEnvelope(await get(`${PATH}?${next}`), 200).prevPageParameter!;
      expectFailure(await get(`${PATH}?${next}&${prev}`), 400);
    });

    it('a GET body that is neither a page parameter string nor empty', async () => {
      expectFailure(
        await rawRequest(t, 'GET', PATH, { token, body: '{"after": 1}', headers: { 'content-type': 'application/json' } }),
        400,
      );
    });
  });

  it.each([
    ['an unknown staff member', 9999],
    ['a staff member of another company', 2001],
  ])('answers %s with 404', async (_what, id) => {
    expectFailure(await get(`/api/external/staffs/${id}/licenses`), 404);
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3'])('rejects staff id %j with 400', async (id) => {
    expectFailure(await get(`/api/external/staffs/${id}/licenses`), 400);
  });
});
