import { PNG } from 'pngjs';
import type { Response } from 'supertest';
import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { countStatements } from './sql-count';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What libpretixsync (pretixSCAN / pretixPOS) sends on orders, as pretix answers it (compat §4.4): the order
 * download URL it builds (`testmode=false`, repeated `exclude=`, `pdf_data=true`, `subevent_after`, then
 * `ordering=-last_modified&modified_since=<X-Page-Generated>` or `ordering=datetime&created_since=`), `include=`,
 * `pdf_data` on event order and position reads, `pdf_image/{key}/`, `created_before`, and that a sync passing
 * `X-Page-Generated` back never misses an order changed meanwhile, even by a transaction open during the list.
 */
describe('orders as libpretixsync reads them', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let vouchersOnly: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const S = `${ORG}/events/series`;
  let itemId: number;
  let textQuestion: number;
  let photoQuestion: number;
  let seriesItem: number;
  const dates: number[] = [];

  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));
  const send = (method: 'post' | 'patch', path: string, body: unknown, as = token) =>
    t
      .http()
      [method](path)
      .set('Authorization', auth(as))
      .send(body as object);

  async function ok(res: Response, status = 201): Promise<Json> {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  }

  const order = async (body: Json = {}, base = E): Promise<Json> =>
    ok(await send('post', `${base}/orders/`, { positions: [{ item: itemId }], ...body }));

  /** libpretixsync's date format `yyyy-MM-dd'T'HH:mm:ssZ` (offset without colon), URL-encoded. */
  const syncDate = (d: Date) => encodeURIComponent(d.toISOString().replace(/\.\d{3}Z$/, '+0000'));

  /** The query libpretixsync's OrderSyncAdapter appends on a scanner (not pretixPOS) with PDF data. */
  const SYNC =
    'testmode=false&exclude=downloads&exclude=payment_date&exclude=payment_provider&exclude=fees' +
    '&exclude=positions.downloads&exclude=payments&exclude=refunds&pdf_data=true';

  const codes = (res: Response) => (res.body.results as Json[]).map((o) => o.code as string);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', {
      slug: 'sample',
      name: { en: 'Sample Conference', de: 'Beispielkonferenz' },
      date_from: '2030-12-27T10:00:00Z',
      date_to: '2030-12-27T18:00:00Z',
      location: { en: 'Main hall' },
    });
    const category = await ok(await send('post', `${E}/categories/`, { name: { en: 'Tickets' } }));
    itemId = (
      await ok(
        await send('post', `${E}/items/`, {
          name: { en: 'Ticket', de: 'Eintritt' },
          default_price: '10.00',
          description: { en: 'Entry for one' },
          category: category.id,
        }),
      )
    ).id as number;
    await ok(await send('post', `${E}/quotas/`, { name: 'Q', size: null, items: [itemId] }));
    textQuestion = (
      await ok(
        await send('post', `${E}/questions/`, {
          question: 'Diet',
          type: 'S',
          identifier: 'DIET',
          items: [itemId],
        }),
      )
    ).id as number;
    photoQuestion = await ok(
      await send('post', `${E}/questions/`, {
        question: 'Photo',
        type: 'F',
        identifier: 'PHOTO',
        items: [itemId],
        required: false,
      }),
    ).then((q) => q.id as number);
    await createSeries(t, token, 'org', { slug: 'series' });
    seriesItem = (await ok(await send('post', `${S}/items/`, { name: 'Day pass', default_price: '5.00' })))
      .id as number;
    const windows: [string, string | null][] = [
      ['2031-01-10T10:00:00Z', '2031-01-10T12:00:00Z'],
      ['2031-02-10T10:00:00Z', null],
      ['2031-03-10T10:00:00Z', '2031-03-10T12:00:00Z'],
    ];
    for (const [from, to] of windows) {
      const d = await ok(
        await send('post', `${S}/subevents/`, {
          name: { en: `Day ${from.slice(5, 7)}` },
          date_from: from,
          date_to: to,
          active: true,
          item_price_overrides: [],
        }),
      );
      dates.push(d.id as number);
    }
    await ok(
      await send('post', `${S}/quotas/`, { name: 'Q', size: null, items: [seriesItem], subevent: dates[0] }),
    );
    await ok(
      await send('post', `${S}/quotas/`, { name: 'Q', size: null, items: [seriesItem], subevent: dates[1] }),
    );
    await ok(
      await send('post', `${S}/quotas/`, { name: 'Q', size: null, items: [seriesItem], subevent: dates[2] }),
    );
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    vouchersOnly = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.vouchers:read'] });
  });

  afterAll(() => t?.close());

  describe("the scanner's first sync", () => {
    let live: Json;
    let test: Json;

    beforeAll(async () => {
      live = await order({
        email: 'ann@example.org',
        phone: '+491701234567',
        locale: 'de',
        invoice_address: {
          name_parts: { given_name: 'Ann', family_name: 'Lee' },
          city: 'Berlin',
          country: 'DE',
        },
        positions: [
          {
            item: itemId,
            attendee_name_parts: { given_name: 'Ann', family_name: 'Lee' },
            company: 'ACME',
            country: 'DE',
            answers: [{ question: textQuestion, answer: 'vegan' }],
          },
        ],
      });
      test = await order({ testmode: true });
    });

    it('answers the URL exactly as libpretixsync builds it: excluded fields gone, pdf_data on positions', async () => {
      const res = await get(`${E}/orders/?${SYNC}`, reader);
      expect(res.status).toBe(200);
      expect(res.headers['x-page-generated']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(codes(res)).toContain(live.code);
      expect(codes(res)).not.toContain(test.code);
      const o = (res.body.results as Json[]).find((x) => x.code === live.code)!;
      for (const gone of ['downloads', 'payment_date', 'payment_provider', 'fees', 'payments', 'refunds']) {
        expect(o).not.toHaveProperty(gone);
      }
      expect(o).toMatchObject({ code: live.code, status: 'n', email: 'ann@example.org' });
      expect(o.invoice_address).toMatchObject({ city: 'Berlin' });
      const p = o.positions[0] as Json;
      expect(p).not.toHaveProperty('downloads');
      expect(p.secret).toBe(live.positions[0].secret);
      expect(p.pdf_data).toMatchObject({
        secret: live.positions[0].secret,
        order: live.code,
        positionid: '1',
        order_positionid: `${live.code}-1`,
        item: 'Eintritt',
        item_description: 'Entry for one',
        item_category: 'Tickets',
        itemvar: 'Eintritt',
        variation: '',
        attendee_name: 'Ann Lee',
        attendee_name_given_name: 'Ann',
        attendee_name_family_name: 'Lee',
        attendee_company: 'ACME',
        attendee_country: 'Germany',
        event_name: 'Beispielkonferenz',
        event_series_name: 'Beispielkonferenz',
        event_location: 'Main hall',
        event_begin: '2030-12-27 10:00',
        event_begin_date: '2030-12-27',
        event_begin_time: '10:00',
        event_end_time: '18:00',
        event_begin_weekday: 'Friday',
        event_date: 'December 27th, 2030',
        event_date_range: 'December 27th, 2030',
        email: 'ann@example.org',
        telephone: '+491701234567',
        invoice_name: 'Ann Lee',
        invoice_city: 'Berlin',
        invoice_country: 'Germany',
        organizer: expect.any(String),
        question_DIET: 'vegan',
        [`question_${textQuestion}`]: 'vegan',
        images: { question_PHOTO: null },
        addons: '',
        seat: '',
        first_scan: '',
      });
      expect(p.pdf_data.price).toMatch(/10,00/);
      expect(p.pdf_data).not.toHaveProperty('question_PHOTO');
    });

    it('has no pdf_data without pdf_data=true, nor on O/orders/ (pretix: event reads only)', async () => {
      const plain = await get(`${E}/orders/${live.code}/`, reader);
      expect(plain.body.positions[0]).not.toHaveProperty('pdf_data');
      const other = await get(`${E}/orders/${live.code}/?pdf_data=yes`, reader);
      expect(other.body.positions[0]).not.toHaveProperty('pdf_data');
      const org = await get(`${ORG}/orders/?code=${live.code as string}&pdf_data=true&exclude=fees`, reader);
      expect(org.status).toBe(200);
      expect(org.body.results[0].positions[0]).not.toHaveProperty('pdf_data');
      expect(org.body.results[0]).not.toHaveProperty('fees');
      const detail = await get(`${E}/orders/${live.code}/?pdf_data=TRUE&exclude=positions.secret`, reader);
      expect(detail.body.positions[0].pdf_data.order).toBe(live.code);
      expect(detail.body.positions[0]).not.toHaveProperty('secret');
    });

    it('puts pdf_data on E/orderpositions/ list and detail; exclude does not apply there (as pretix)', async () => {
      const id = live.positions[0].id as number;
      const list = await get(
        `${E}/orderpositions/?order=${live.code as string}&pdf_data=true&exclude=secret`,
        reader,
      );
      expect(list.status).toBe(200);
      expect(list.body.results[0].secret).toBe(live.positions[0].secret);
      expect(list.body.results[0].pdf_data).toMatchObject({ order: live.code, question_DIET: 'vegan' });
      const detail = await get(`${E}/orderpositions/${id}/?pdf_data=true`, reader);
      expect(detail.body.pdf_data.images).toEqual({ question_PHOTO: null });
      const plain = await get(`${E}/orderpositions/${id}/`, reader);
      expect(plain.body).not.toHaveProperty('pdf_data');
      expect((await get(`${ORG}/orderpositions/?pdf_data=true`, reader)).body.results[0]).not.toHaveProperty(
        'pdf_data',
      );
    });

    it('puts pdf_data on check-in list positions for readers of orders only (pretix)', async () => {
      const list = await ok(
        await send('post', `${E}/checkinlists/`, {
          name: 'Entry',
          all_products: true,
          include_pending: true,
        }),
      );
      const scanner = await teamToken(t, 'org', {
        allEvents: true,
        eventPermissions: ['event.orders:checkin'],
      });
      const base = `${E}/checkinlists/${list.id as number}/positions/`;
      const asReader = await get(
        `${base}?pdf_data=true&ignore_status=true&order=${live.code as string}`,
        reader,
      );
      expect(asReader.status).toBe(200);
      expect(asReader.body.results[0].pdf_data).toMatchObject({ order: live.code, question_DIET: 'vegan' });
      const id = live.positions[0].id as number;
      const one = await get(`${base}${id}/?pdf_data=true&ignore_status=true`, reader);
      expect(one.body.pdf_data.order).toBe(live.code);
      const asScanner = await get(
        `${base}?pdf_data=true&ignore_status=true&search=${live.code as string}`,
        scanner,
      );
      expect(asScanner.status).toBe(200);
      expect(asScanner.body.results[0].secret).toBe(live.positions[0].secret);
      expect(asScanner.body.results[0]).not.toHaveProperty('pdf_data');
      expect((await get(`${base}${id}/?pdf_data=true&ignore_status=true`, scanner)).body).not.toHaveProperty(
        'pdf_data',
      );
      expect(
        (await get(`${base}?ignore_status=true&order=${live.code as string}`, reader)).body.results[0],
      ).not.toHaveProperty('pdf_data');
    });

    it('refuses credentials without event.orders:read', async () => {
      expect((await get(`${E}/orders/?${SYNC}`, vouchersOnly)).status).toBe(403);
      const id = live.positions[0].id as number;
      expect((await get(`${E}/orderpositions/${id}/pdf_image/question_PHOTO/`, vouchersOnly)).status).toBe(
        403,
      );
    });

    it('answers pdf_image/{key}/ as pretix: unknown key, no image, unknown position', async () => {
      const id = live.positions[0].id as number;
      const unknown = await get(`${E}/orderpositions/${id}/pdf_image/logo/`, reader);
      expect([unknown.status, unknown.body]).toEqual([404, { detail: 'Unknown key' }]);
      const none = await get(`${E}/orderpositions/${id}/pdf_image/question_PHOTO/`, reader);
      expect([none.status, none.body]).toEqual([404, { detail: 'No image available' }]);
      const text = await get(`${E}/orderpositions/${id}/pdf_image/question_DIET/`, reader);
      expect([text.status, text.body]).toEqual([404, { detail: 'Unknown key' }]);
      const missing = await get(`${E}/orderpositions/999999/pdf_image/question_PHOTO/`, reader);
      expect([missing.status, missing.body]).toEqual([404, { detail: 'Not found.' }]);
    });

    it('serves the image of a file answer at pdf_image/question_<identifier>/ and names it in pdf_data images', async () => {
      const image = new PNG({ width: 3, height: 2 });
      image.data.fill(200);
      const bytes = PNG.sync.write(image);
      const upload = async (body: Buffer, type: string, name: string) =>
        (
          await ok(
            await t
              .http()
              .post('/api/v1/upload')
              .set('Authorization', auth(token))
              .set('Content-Type', type)
              .set('Content-Disposition', `attachment; filename="${name}"`)
              .send(body),
          )
        ).id as string;
      const withImage = await order({
        positions: [
          {
            item: itemId,
            answers: [{ question: photoQuestion, answer: await upload(bytes, 'image/png', 'me.png') }],
          },
        ],
      });
      const pid = (withImage.positions as Json[])[0].id as number;
      const detail = await get(`${E}/orders/${withImage.code as string}/?pdf_data=true`, reader);
      const url = (detail.body.positions as Json[])[0].pdf_data as { images: Record<string, string | null> };
      expect(url.images.question_PHOTO).toMatch(
        new RegExp(`/orderpositions/${pid}/pdf_image/question_PHOTO/$`),
      );
      const served = await t
        .http()
        .get(new URL(url.images.question_PHOTO!).pathname)
        .set('Authorization', auth(reader))
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
      // A file answer that is no image (a PDF) has no image.
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
      const withPdf = await order({
        positions: [
          {
            item: itemId,
            answers: [{ question: photoQuestion, answer: await upload(pdf, 'application/pdf', 'a.pdf') }],
          },
        ],
      });
      const pdfPosition = (withPdf.positions as Json[])[0].id as number;
      const none = await get(`${E}/orderpositions/${pdfPosition}/pdf_image/question_PHOTO/`, reader);
      expect([none.status, none.body]).toEqual([404, { detail: 'No image available' }]);
    });

    it('keeps the statement count of pdf_data pages fixed (list ≤ 4 whatever the size, detail ≤ 3)', async () => {
      await order();
      await order();
      const one = await countStatements(() => get(`${E}/orders/?${SYNC}&page_size=1`, reader));
      const all = await countStatements(() => get(`${E}/orders/?${SYNC}&page_size=50`, reader));
      expect(all.rows).toBeGreaterThan(2);
      expect(all.statements).toBe(one.statements);
      expect(all.statements).toBeLessThanOrEqual(4);
      const detail = await countStatements(() => get(`${E}/orders/${live.code}/?pdf_data=true`, reader));
      expect(detail.statements).toBeLessThanOrEqual(3);
      const positions = await countStatements(() => get(`${E}/orderpositions/?pdf_data=true`, reader));
      expect(positions.rows).toBeGreaterThan(2);
      expect(positions.statements).toBeLessThanOrEqual(4);
    });
  });

  describe('include and exclude', () => {
    let o: Json;
    beforeAll(async () => {
      o = await order({ invoice_address: { name_parts: { given_name: 'Bo' }, city: 'Oslo', country: 'NO' } });
    });

    it('include keeps only the named fields, one level into nested ones', async () => {
      const res = await get(
        `${E}/orders/${o.code}/?include=code&include=positions.secret&include=invoice_address.city`,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: o.code,
        positions: [{ secret: o.positions[0].secret }],
        invoice_address: { city: 'Oslo' },
      });
      const whole = await get(`${E}/orders/${o.code}/?include=positions&include=status`);
      expect(Object.keys(whole.body).sort()).toEqual(['positions', 'status']);
      expect(whole.body.positions[0]).toEqual((await get(`${E}/orders/${o.code}/`)).body.positions[0]);
    });

    it('unknown include names select nothing; a nested field without a known child is dropped', async () => {
      const res = await get(
        `${E}/orders/${o.code}/?include=code&include=nonsense&include=positions.nonsense`,
      );
      expect(res.body).toEqual({ code: o.code });
    });

    it('exclude drops fields and children; unknown names are ignored; applied after include', async () => {
      const full = (await get(`${E}/orders/${o.code}/`)).body as Json;
      const res = await get(
        `${E}/orders/${o.code}/?exclude=nonsense&exclude=positions.nonsense&exclude=a.b.c`,
      );
      expect(res.body).toEqual(full);
      const some = await get(`${E}/orders/${o.code}/?exclude=positions.answers&exclude=email&exclude=fees`);
      expect(some.body).not.toHaveProperty('email');
      expect(some.body).not.toHaveProperty('fees');
      expect(some.body.positions[0]).not.toHaveProperty('answers');
      expect(some.body.positions[0].secret).toBe(full.positions[0].secret);
      const both = await get(`${E}/orders/${o.code}/?include=code&include=email&exclude=email`);
      expect(both.body).toEqual({ code: o.code });
    });

    it('works on lists (E/orders/ and O/orders/) page by page', async () => {
      const list = await get(`${E}/orders/?include=code&code=${o.code as string}`);
      expect(list.body.results).toEqual([{ code: o.code }]);
      const org = await get(`${ORG}/orders/?include=code&include=event&code=${o.code as string}`);
      expect(org.body.results).toEqual([{ code: o.code, event: 'sample' }]);
    });
  });

  describe('subevent_after, subevent_before, created_since, created_before', () => {
    const on = async (date: number) =>
      ok(await send('post', `${S}/orders/`, { positions: [{ item: seriesItem, subevent: date }] }));
    let jan: Json;
    let feb: Json;
    let mar: Json;
    beforeAll(async () => {
      jan = await on(dates[0]);
      feb = await on(dates[1]);
      mar = await on(dates[2]);
    });
    const list = async (query: string) => {
      const res = await get(`${S}/orders/?${query}`);
      expect(res.status).toBe(200);
      return codes(res).sort();
    };

    it('subevent_after: a date ending strictly after the time (or starting after it without an end)', async () => {
      // January ends 12:00: exactly then is not after.
      expect(await list(`subevent_after=2031-01-10T12:00:00Z`)).toEqual([feb.code, mar.code].sort());
      expect(await list(`subevent_after=2031-01-10T11:59:59Z`)).toEqual(
        [jan.code, feb.code, mar.code].sort(),
      );
      // February has no end: its start counts.
      expect(await list(`subevent_after=2031-02-10T10:00:00Z`)).toEqual([mar.code]);
      expect(await list(`subevent_after=2031-02-10T09:59:00%2B0000`)).toEqual([feb.code, mar.code].sort());
    });

    it('subevent_before: a date starting strictly before the time; both combine', async () => {
      expect(await list(`subevent_before=2031-02-10T10:00:00Z`)).toEqual([jan.code]);
      expect(await list(`subevent_before=2031-02-10T10:00:01Z`)).toEqual([jan.code, feb.code].sort());
      expect(await list(`subevent_after=2031-01-31T00:00:00Z&subevent_before=2031-03-01T00:00:00Z`)).toEqual([
        feb.code,
      ]);
    });

    it('counts canceled positions too (pretix filters over all positions)', async () => {
      const two = await ok(
        await send('post', `${S}/orders/`, {
          positions: [
            { item: seriesItem, subevent: dates[0] },
            { item: seriesItem, subevent: dates[2] },
          ],
        }),
      );
      await t.db.query('UPDATE order_position SET canceled = true WHERE id = $1', [two.positions[1].id]);
      expect(await list(`subevent_after=2031-03-01T00:00:00Z`)).toContain(two.code);
    });

    it('answers 400 for a malformed time, as the other datetime filters', async () => {
      for (const p of ['subevent_after', 'subevent_before', 'created_before']) {
        const res = await get(`${S}/orders/?${p}=yesterday`);
        expect([res.status, res.body]).toEqual([400, { [p]: ['Enter a valid date/time.'] }]);
      }
    });

    it('created_since is inclusive, created_before exclusive', async () => {
      const rows: { datetime: Date }[] = await t.db.query('SELECT datetime FROM orders WHERE code = $1', [
        feb.code,
      ]);
      const at = rows[0].datetime.toISOString();
      expect(await list(`created_since=${encodeURIComponent(at)}`)).toContain(feb.code);
      expect(await list(`created_before=${encodeURIComponent(at)}`)).not.toContain(feb.code);
      expect(await list(`created_before=${encodeURIComponent(at)}`)).toContain(jan.code);
    });

    it("libpretixsync's first run on a series: subevent_after 14 days back, with the sync query", async () => {
      const cutoff = new Date(Date.UTC(2031, 0, 27));
      const res = await get(`${S}/orders/?${SYNC}&subevent_after=${syncDate(cutoff)}`);
      expect(res.status).toBe(200);
      expect(codes(res)).toContain(feb.code);
      expect(codes(res)).not.toContain(jan.code);
    });
  });

  describe('modified_since with X-Page-Generated, ordering=-last_modified', () => {
    it('breaks last_modified ties by id, so paging neither skips nor repeats', async () => {
      const made = [await order(), await order(), await order(), await order(), await order()];
      const ids = made.map((m) => m.code as string);
      await t.db.query(`UPDATE orders SET last_modified = '2040-01-01T00:00:00Z' WHERE code = ANY($1)`, [
        ids,
      ]);
      const seen: string[] = [];
      for (let page = 1; page <= 3; page += 1) {
        const res = await get(
          `${E}/orders/?ordering=-last_modified&modified_since=2039-12-31T00:00:00Z&page_size=2&page=${page}`,
        );
        seen.push(...codes(res));
      }
      const byId: { code: string }[] = await t.db.query(
        'SELECT code FROM orders WHERE code = ANY($1) ORDER BY id',
        [ids],
      );
      expect(seen).toEqual(byId.map((r) => r.code));
      await t.db.query(`UPDATE orders SET last_modified = now() WHERE code = ANY($1)`, [ids]);
    });

    it('a sync passing X-Page-Generated back sees an order changed while the first sync was paging', async () => {
      for (let i = 0; i < 3; i += 1) await order();
      const first = await get(`${E}/orders/?${SYNC}&page_size=1`, reader);
      const since = new Date(first.headers['x-page-generated']);
      const target = (first.body.results as Json[])[0];
      // Changed between page 1 and page 2 of the first sync.
      await ok(await send('patch', `${E}/orders/${target.code}/`, { comment: 'changed while paging' }), 200);
      const second = await get(`${E}/orders/?${SYNC}&page_size=1&page=2`, reader);
      expect(second.status).toBe(200);
      const next = await get(
        `${E}/orders/?${SYNC}&ordering=-last_modified&modified_since=${syncDate(since)}`,
        reader,
      );
      expect(codes(next)[0]).toBe(target.code);
    });

    it('does not miss a change whose transaction was open while the list was read', async () => {
      const victim = await order();
      const runner = t.db.createQueryRunner();
      await runner.connect();
      try {
        await runner.startTransaction();
        // A writer inside its transaction takes last_modified now, then commits only after the scanner's list.
        await runner.query(
          `UPDATE orders SET comment = 'slow writer', last_modified = clock_timestamp() WHERE code = $1`,
          [victim.code],
        );
        const list = await get(`${E}/orders/?${SYNC}&ordering=-last_modified`, reader);
        expect(list.status).toBe(200);
        const generated = list.headers['x-page-generated'];
        await runner.commitTransaction();
        const rows: { last_modified: Date }[] = await t.db.query(
          'SELECT last_modified FROM orders WHERE code = $1',
          [victim.code],
        );
        expect(new Date(generated).getTime()).toBeLessThanOrEqual(rows[0].last_modified.getTime());
        const next = await get(
          `${E}/orders/?${SYNC}&ordering=-last_modified&modified_since=${encodeURIComponent(generated)}`,
          reader,
        );
        expect(codes(next)).toContain(victim.code);
        const changed = (next.body.results as Json[]).find((x) => x.code === victim.code)!;
        expect(changed.comment).toBe('slow writer');
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    });

    it('continues an interrupted first sync by ordering=datetime&created_since', async () => {
      const a = await order();
      const b = await order();
      const rows: { datetime: Date }[] = await t.db.query('SELECT datetime FROM orders WHERE code = $1', [
        a.code,
      ]);
      const res = await get(
        `${E}/orders/?${SYNC}&ordering=datetime&created_since=${encodeURIComponent(rows[0].datetime.toISOString())}`,
        reader,
      );
      expect(codes(res)).toEqual([a.code, b.code]);
    });
  });
});
