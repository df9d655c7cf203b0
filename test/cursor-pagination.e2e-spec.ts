import { allResults, createTicketingClient } from '../sdk/typescript/src';
import { encodeDeltaCursor } from '../src/checkin/delta-cursor';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { seedRouteFixture } from './route-fixture';

/**
 * Cursor pagination (README "Cursor pagination", issue 27 §3): every list of the route table pages with
 * `?cursor=` to the same rows as with `?page=`, `previous` links go back exactly, orderings with ties, NULLs and
 * descending terms page without skipping or repeating, bad cursors answer 400, `page_size` goes up to 1000 with a
 * cursor only, and a client paging while rows are inserted and deleted by parallel requests sees every surviving
 * row exactly once.
 */
jest.setTimeout(240_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies, checked by the assertions
type Body = Record<string, any>;

/** Lists that are no pages at all (the whole catalogue of exporters or shredders, no `page` either). */
const UNPAGINATED = [/\/exporters\/$/, /\/shredders\/$/];

describe('cursor pagination', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(() => t?.close());

  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  const get = async (url: string, authorization: string) => {
    const res = await t.http().get(url).set('Authorization', authorization);
    return { status: res.status, body: res.body as Body };
  };

  /** Every row of a list, following `next` links from `url`; also the pages (their urls and rows). */
  async function walk(url: string, authorization: string): Promise<{ rows: unknown[]; pages: Body[] }> {
    const rows: unknown[] = [];
    const pages: Body[] = [];
    let next: string | null = url;
    while (next) {
      const res = await get(next, authorization);
      if (res.status !== 200) throw new Error(`GET ${next}: ${res.status} ${JSON.stringify(res.body)}`);
      pages.push({ url: next, ...res.body });
      rows.push(...(res.body.results as unknown[]));
      next = res.body.next ? local(res.body.next as string) : null;
      if (pages.length > 500) throw new Error(`GET ${url}: no end`);
    }
    return { rows, pages };
  }

  const withParam = (url: string, param: string) => `${url}${url.includes('?') ? '&' : '?'}${param}`;

  describe('every list of the route table', () => {
    it('pages with a cursor to the rows of page mode, and back with previous links', async () => {
      const fixture = await seedRouteFixture(t);
      const checked: string[] = [];
      let orderings = 0;
      const doc = (await t.http().get('/api/v1/openapi.json')).body as {
        paths: Record<
          string,
          { get?: { parameters?: { name: string; schema?: { items?: { enum?: string[] } } }[] } }
        >;
      };
      const notLists: string[] = [];
      for (const r of fixture.routes()) {
        if (r.detail || UNPAGINATED.some((p) => p.test(r.path))) continue;
        const authorization = r.path.startsWith('/api/v1/device/')
          ? `Device ${fixture.params.deviceToken}`
          : auth(fixture.token);
        const plain = await get(r.url, authorization);
        if (plain.status !== 200 || !Array.isArray(plain.body.results) || !('count' in plain.body)) {
          notLists.push(r.path);
          continue;
        }
        const paged = await walk(withParam(r.url, 'page_size=50'), authorization);
        const cursor = await walk(withParam(r.url, 'cursor=&page_size=2'), authorization);
        expect({ path: r.path, rows: cursor.rows }).toEqual({ path: r.path, rows: paged.rows });
        for (const page of cursor.pages) {
          expect({ path: r.path, count: page.count }).toEqual({ path: r.path, count: null });
          if (page.next) expect(page.next).toMatch(/^http:\/\/[^/]+\/api\/v1\/.*[?&]cursor=[A-Za-z0-9_-]+/);
        }
        expect(cursor.pages[0].previous).toBeNull();
        // Back from the last page: every page again, in reverse, the first one with no previous link.
        for (let i = cursor.pages.length - 1; i > 0; i--) {
          const back = await get(local(cursor.pages[i].previous as string), authorization);
          expect(back.status).toBe(200);
          expect({ path: r.path, page: i - 1, rows: back.body.results }).toEqual({
            path: r.path,
            page: i - 1,
            rows: cursor.pages[i - 1].results,
          });
          expect(back.body.previous === null).toBe(i - 1 === 0);
        }
        checked.push(r.path);
        // Every ordering the list documents, ascending and descending (ties, NULLs, joined and computed terms).
        const openapiPath = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
        const orderingParam = (doc.paths[openapiPath]?.get?.parameters ?? []).find(
          (p) => p.name === 'ordering',
        );
        for (const ordering of orderingParam?.schema?.items?.enum ?? []) {
          const url = withParam(r.url, `ordering=${ordering}`);
          const byPage = await walk(withParam(url, 'page_size=50'), authorization);
          const byCursor = await walk(withParam(url, 'cursor=&page_size=2'), authorization);
          expect({ path: r.path, ordering, rows: byCursor.rows }).toEqual({
            path: r.path,
            ordering,
            rows: byPage.rows,
          });
          orderings++;
        }
      }
      expect(orderings).toBeGreaterThan(100);
      // The route table's lists: all of them page with a cursor (the fixture has rows on each); the other GET
      // routes that are no details answer no list envelope.
      expect(checked.length).toBeGreaterThanOrEqual(60);
      // The scanners' delta has its own cursor: not both.
      const list = Number(fixture.params.list);
      const delta = encodeDeltaCursor({ list, lo: '0', hi: null, after: 0 });
      const both = await get(
        `/api/v1/organizers/org/events/sample/checkinlists/${list}/positions/?changed_since=${delta}&cursor=`,
        auth(fixture.token),
      );
      expect(both).toEqual({
        status: 400,
        body: { cursor: ['Use either cursor or changed_since, not both.'] },
      });
      expect(notLists).toEqual(['/api/v1/idempotency_query', '/api/v1/me', '/api/v1/version']);
    });
  });

  describe('on vouchers', () => {
    let token: string;
    const E = '/api/v1/organizers/cur/events/main';
    let eventId: number;
    let itemId: number;

    beforeAll(async () => {
      ({ token } = await bootstrapOrganizer(t, 'cur'));
      await createEvent(t, token, 'cur', { slug: 'main' });
      const item = await t
        .http()
        .post(`${E}/items/`)
        .set('Authorization', auth(token))
        .send({ name: 'Ticket', default_price: '10.00' });
      itemId = (item.body as { id: number }).id;
      const [event] = await t.db.query<{ id: number }[]>(
        "SELECT e.id FROM event e JOIN organizer o ON o.id = e.organizer_id WHERE o.slug = 'cur'",
      );
      eventId = event.id;
      // 60 vouchers with ties (max_usages 1..4, value 3 distinct) and NULLs (every third has no valid_until).
      await t.db.query(
        `INSERT INTO voucher (event_id, code, max_usages, valid_until, value, item_id)
         SELECT $1, 'V' || lpad(((g * 37) % 61)::text, 3, '0'), 1 + g % 4,
                CASE WHEN g % 3 = 0 THEN NULL ELSE timestamptz '2031-01-01 10:00:00.123456+00' + (g % 5) * interval '1 day' END,
                (g % 3) * 5, $2
           FROM generate_series(1, 60) g`,
        [eventId, itemId],
      );
    });

    it('pages every ordering (ties, NULLs, descending, mixed) to the rows of page mode', async () => {
      const orderings = [
        'code',
        '-code',
        'max_usages',
        '-max_usages',
        'valid_until',
        '-valid_until',
        'valid_until,-code',
        '-max_usages,value,-id',
        'value,valid_until',
        '-value,-valid_until,code',
      ];
      for (const ordering of orderings) {
        const paged = await walk(`${E}/vouchers/?ordering=${ordering}&page_size=50`, auth(token));
        expect(paged.rows).toHaveLength(60);
        for (const size of [1, 7]) {
          const cursor = await walk(
            `${E}/vouchers/?ordering=${ordering}&cursor=&page_size=${size}`,
            auth(token),
          );
          expect({ ordering, size, rows: cursor.rows }).toEqual({ ordering, size, rows: paged.rows });
          // Back from the end, page by page.
          const back: unknown[] = [];
          let previous: string | null = cursor.pages[cursor.pages.length - 1].previous as string | null;
          back.unshift(...(cursor.pages[cursor.pages.length - 1].results as unknown[]));
          while (previous) {
            const res = await get(local(previous), auth(token));
            back.unshift(...(res.body.results as unknown[]));
            previous = res.body.previous as string | null;
          }
          expect({ ordering, size, back }).toEqual({ ordering, size, back: paged.rows });
        }
      }
    });

    it('answers 400 to bad cursors and to cursor with page, never 500', async () => {
      const first = await get(`${E}/vouchers/?ordering=code&cursor=&page_size=5`, auth(token));
      expect(first.status).toBe(200);
      const next = new URL(first.body.next as string).searchParams.get('cursor')!;
      const invalid = { cursor: ['Invalid cursor.'] };
      const decoded = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as unknown[];
      const forge = (change: (body: unknown[]) => unknown[]) =>
        Buffer.from(JSON.stringify(change(structuredClone(decoded))), 'utf8').toString('base64url');
      const cases: [string, string][] = [
        ['garbage', `${E}/vouchers/?ordering=code&cursor=!!notacursor`],
        [
          'not base64 json',
          `${E}/vouchers/?ordering=code&cursor=${Buffer.from('hello').toString('base64url')}`,
        ],
        ['other ordering', `${E}/vouchers/?ordering=-code&cursor=${next}`],
        ['other filter', `${E}/vouchers/?ordering=code&max_usages=2&cursor=${next}`],
        ['other list', `${E}/items/?ordering=code&cursor=${next}`],
        ['no ordering', `${E}/vouchers/?cursor=${next}`],
        ['fewer values', `${E}/vouchers/?ordering=code&cursor=${forge((b) => [b[0], b[1], b[2], ['V001']])}`],
        [
          'value of another type',
          `${E}/vouchers/?ordering=code&cursor=${forge((b) => [b[0], b[1], b[2], ['V001', 'not-an-id']])}`,
        ],
        [
          'too large an id',
          `${E}/vouchers/?ordering=code&cursor=${forge((b) => [b[0], b[1], b[2], ['V001', '99999999999999']])}`,
        ],
        ['bad direction', `${E}/vouchers/?ordering=code&cursor=${forge((b) => [b[0], b[1], 'x', b[3]])}`],
        ['repeated', `${E}/vouchers/?ordering=code&cursor=${next}&cursor=${next}`],
      ];
      for (const [name, url] of cases) {
        const res = await get(url, auth(token));
        expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 400, body: invalid });
      }
      const both = await get(`${E}/vouchers/?ordering=code&page=2&cursor=${next}`, auth(token));
      expect(both.status).toBe(400);
      expect(Object.keys(both.body)).toEqual(['cursor']);
      const bothEmpty = await get(`${E}/vouchers/?cursor=&page=1`, auth(token));
      expect(bothEmpty.status).toBe(400);
      // A cursor of a NULL-able ordering whose value is forged to something that is no timestamp.
      const dated = await get(`${E}/vouchers/?ordering=valid_until&cursor=&page_size=5`, auth(token));
      const datedNext = new URL(dated.body.next as string).searchParams.get('cursor')!;
      const body = JSON.parse(Buffer.from(datedNext, 'base64url').toString('utf8')) as unknown[];
      body[3] = ['yesterday-ish', '1'];
      const forged = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
      const res = await get(`${E}/vouchers/?ordering=valid_until&cursor=${forged}`, auth(token));
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid });
    });

    it('honours page_size up to 1000 with a cursor and caps it at 50 without', async () => {
      await t.db.query(
        `INSERT INTO voucher (event_id, code, item_id)
         SELECT $1, 'BULK' || lpad(g::text, 5, '0'), $2 FROM generate_series(1, 1100) g`,
        [eventId, itemId],
      );
      const big = await get(`${E}/vouchers/?cursor=&page_size=1000`, auth(token));
      expect(big.body.results).toHaveLength(1000);
      expect(big.body.count).toBeNull();
      const huge = await get(`${E}/vouchers/?cursor=&page_size=5000`, auth(token));
      expect(huge.body.results).toHaveLength(1000);
      const rest = await get(local(big.body.next as string), auth(token));
      expect(rest.body.results).toHaveLength(160);
      expect(rest.body.next).toBeNull();
      const paged = await get(`${E}/vouchers/?page_size=1000`, auth(token));
      expect(paged.body.results).toHaveLength(50);
      expect(paged.body.count).toBe(1160);
      await t.db.query("DELETE FROM voucher WHERE code LIKE 'BULK%'");
    });

    it('lets the SDK follow cursor links (allResults) to every row', async () => {
      await t.app.listen(0, '127.0.0.1');
      const client = createTicketingClient({ baseUrl: await t.app.getUrl(), token });
      const path = { organizer: 'cur', event: 'main' };
      const codes: string[] = [];
      for await (const v of allResults((cursor) =>
        client.GET('/api/v1/organizers/{organizer}/events/{event}/vouchers/', {
          params: { path, query: { cursor, page_size: 7, ordering: ['-code'] } },
        }),
      ))
        codes.push(v.code);
      const paged = await walk(`${E}/vouchers/?ordering=-code`, auth(token));
      expect(codes).toEqual((paged.rows as { code: string }[]).map((v) => v.code));
      expect(codes.length).toBe(60);
    });

    it('returns every surviving row exactly once while 1,000 rows are inserted and deleted in parallel', async () => {
      const initial = await t.db.query<{ id: number }[]>(
        `INSERT INTO voucher (event_id, code, item_id)
         SELECT $1, 'C' || md5(g::text), $2 FROM generate_series(1, 1200) g RETURNING id`,
        [eventId, itemId],
      );
      const initialIds = initial.map((r) => r.id);
      // Delete 1,000 of them (every one but a random 200), insert 1,000 new ones with random codes, so rows come
      // and go before and after the reader's position in the `code` ordering.
      const doomed = new Set([...initialIds].sort(() => Math.random() - 0.5).slice(0, 1000));
      const deletions = [...doomed];
      const inserted = new Set<number>();
      let writing = true;
      const deleter = async () => {
        while (deletions.length > 0) {
          const id = deletions.pop()!;
          const res = await t.http().delete(`${E}/vouchers/${id}/`).set('Authorization', auth(token));
          if (res.status !== 204) throw new Error(`DELETE ${id}: ${res.status}`);
        }
      };
      let toInsert = 1000;
      const inserter = async () => {
        while (toInsert > 0) {
          toInsert--;
          const res = await t
            .http()
            .post(`${E}/vouchers/`)
            .set('Authorization', auth(token))
            .send({ code: `C${Math.random().toString(16).slice(2, 14)}`, item: itemId });
          if (res.status !== 201) throw new Error(`POST: ${res.status} ${res.text}`);
          inserted.add((res.body as { id: number }).id);
        }
      };
      const writers = Promise.all([
        deleter(),
        deleter(),
        deleter(),
        inserter(),
        inserter(),
        inserter(),
      ]).finally(() => {
        writing = false;
      });
      const seen: number[] = [];
      let pagesWhileWriting = 0;
      let next: string | null = `${E}/vouchers/?ordering=code&cursor=&page_size=20`;
      while (next) {
        const res = await get(next, auth(token));
        expect(res.status).toBe(200);
        if (writing) pagesWhileWriting++;
        const rows = res.body.results as { id: number; code: string }[];
        seen.push(...rows.filter((v) => v.code.startsWith('C')).map((v) => v.id));
        next = res.body.next ? local(res.body.next as string) : null;
        // Paced so that the walk spans the writes.
        if (writing) await new Promise((r) => setTimeout(r, 40));
      }
      await writers;
      expect(pagesWhileWriting).toBeGreaterThan(10);
      expect(seen.length).toBe(new Set(seen).size);
      const seenSet = new Set(seen);
      const survivors = initialIds.filter((id) => !doomed.has(id));
      expect(survivors.filter((id) => !seenSet.has(id))).toEqual([]);
      // Nothing else: only initial rows or rows inserted meanwhile.
      expect(seen.filter((id) => !initialIds.includes(id) && !inserted.has(id))).toEqual([]);
    });
  });
});
