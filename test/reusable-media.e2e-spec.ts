import type { Response } from 'supertest';
import { runCli } from './cli-harness';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';
import { ensureBuilt } from './worker-harness';

/**
 * `O/reusablemedia/` and `O/reusablemedia/lookup/` (spec "Reusable media"; compat §3.3): create with
 * links validated within the organizer, immutable type and identifier, filters, expansions, the lookup across
 * organizers under a gift card acceptance with `reusable_media`, permissions `organizer.reusablemedia:read|write`.
 */
describe('reusable media', () => {
  let t: TestApp;
  let token: string;
  let token2: string;
  let reader: string;
  let giftcardsOnly: string;
  const O = '/api/v1/organizers/org';
  const O2 = '/api/v1/organizers/org2';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const DUPLICATE = 'A medium with the same identifier and type already exists in your organizer account.';

  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));
  const send = (method: 'post' | 'patch' | 'put' | 'delete', path: string, body?: unknown, as = token) =>
    t
      .http()
      [method](path)
      .set('Authorization', auth(as))
      .send(body as object);

  type Medium = { id: number; identifier: string; updated: string } & Record<string, unknown>;

  async function ok<T = Record<string, unknown>>(res: Response, status = 201): Promise<T> {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  let serial = 0;
  const medium = async (body: object = {}, base = O, as = token): Promise<Medium> =>
    ok<Medium>(
      await send(
        'post',
        `${base}/reusablemedia/`,
        { type: 'barcode', identifier: `M${++serial}`, ...body },
        as,
      ),
    );

  const giftcard = async (base = O, as = token, body: object = {}) =>
    ok<{ id: number; secret: string } & Record<string, unknown>>(
      await send('post', `${base}/giftcards/`, { currency: 'EUR', value: '25.00', ...body }, as),
    );

  /** An order of the organizer's event with one position. */
  async function order(
    org: string,
    as: string,
    body: object = {},
  ): Promise<{ code: string; position: { id: number; secret: string } }> {
    const E = `/api/v1/organizers/${org}/events/sample`;
    const o = await ok<{ code: string; positions: { id: number; secret: string }[] }>(
      await send('post', `${E}/orders/`, { positions: [{ item: items[org] }], ...body }, as),
    );
    return { code: o.code, position: o.positions[0] };
  }

  const items: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: token2 } = await bootstrapOrganizer(t, 'org2'));
    reader = await teamToken(t, 'org', { organizerPermissions: ['organizer.reusablemedia:read'] });
    giftcardsOnly = await teamToken(t, 'org', {
      organizerPermissions: ['organizer.giftcards:read', 'organizer.giftcards:write'],
    });
    for (const [org, as] of [
      ['org', token],
      ['org2', token2],
    ] as const) {
      await createEvent(t, as, org, { slug: 'sample' });
      const E = `/api/v1/organizers/${org}/events/sample`;
      const item = await ok<{ id: number }>(
        await send('post', `${E}/items/`, { name: 'Ticket', default_price: '10.00' }, as),
      );
      await ok(await send('post', `${E}/quotas/`, { name: 'Q', size: null, items: [item.id] }, as));
      items[org] = item.id;
    }
    ensureBuilt(); // the lookup tests run the CLI from dist/
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a medium with the defaults, logged, and answers it again on GET', async () => {
      const res = await send('post', `${O}/reusablemedia/`, {
        type: 'nfc_uid',
        identifier: '04AB12CD',
        id: 999,
        organizer: 'org2',
        created: '2001-01-01T00:00:00Z',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        type: 'nfc_uid',
        organizer: 'org',
        identifier: '04AB12CD',
        active: true,
        created: expect.stringMatching(/^20\d\d-.*Z$/),
        updated: expect.stringMatching(/Z$/),
        expires: null,
        customer: null,
        linked_orderposition: null,
        linked_giftcard: null,
        info: {},
        notes: null,
      });
      expect(res.body.id).not.toBe(999);
      expect(res.body.created).not.toBe('2001-01-01T00:00:00Z');
      expect((await get(`${O}/reusablemedia/${res.body.id}/`)).body).toEqual(res.body);
      const logged = await t.db.query(
        "SELECT action_type FROM log_entry WHERE content_type = 'reusablemedium' AND object_id = $1",
        [res.body.id],
      );
      expect(logged).toEqual([{ action_type: 'pretix.reusable_medium.created' }]);
    });

    it('stores every field, linking a gift card and an order position of the organizer', async () => {
      const card = await giftcard();
      const { position } = await order('org', token);
      const body = {
        type: 'nfc_mf0aes',
        identifier: 'AES-1',
        active: false,
        expires: '2031-02-03T04:05:06+01:00',
        linked_giftcard: card.id,
        linked_orderposition: position.id,
        info: { key_id: 3, nested: { a: [1, 2] } },
        notes: 'Blue wristband',
      };
      const m = await ok<Medium>(await send('post', `${O}/reusablemedia/`, body));
      expect(m).toMatchObject({ ...body, expires: '2031-02-03T03:05:06Z', customer: null, organizer: 'org' });
      expect((await get(`${O}/reusablemedia/${m.id}/`)).body).toEqual(m);
    });

    it('keeps identifiers unique per organizer and type only', async () => {
      await medium({ identifier: 'SAME' });
      const dup = await send('post', `${O}/reusablemedia/`, { type: 'barcode', identifier: 'SAME' });
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ identifier: [DUPLICATE] });
      expect((await medium({ identifier: 'SAME', type: 'nfc_uid' })).type).toBe('nfc_uid');
      expect((await medium({ identifier: 'SAME' }, O2, token2)).organizer).toBe('org2');
    });

    it.each<[string, object, object]>([
      ['nothing', {}, { type: ['This field is required.'], identifier: ['This field is required.'] }],
      ['an unknown type', { type: 'qr', identifier: 'x' }, { type: ['"qr" is not a valid choice.'] }],
      [
        'a blank identifier',
        { type: 'barcode', identifier: ' ' },
        { identifier: ['This field may not be blank.'] },
      ],
      [
        'a too long identifier',
        { type: 'barcode', identifier: 'x'.repeat(201) },
        { identifier: ['Ensure this field has no more than 200 characters.'] },
      ],
      [
        'a null active',
        { type: 'barcode', identifier: 'n1', active: null },
        { active: ['This field may not be null.'] },
      ],
      [
        'an identifier that names no customer of the organizer',
        { type: 'barcode', identifier: 'c1', customer: 'CUST1' },
        { customer: ['Object with identifier=CUST1 does not exist.'] },
      ],
      [
        'an unknown gift card',
        { type: 'barcode', identifier: 'g1', linked_giftcard: 999999 },
        { linked_giftcard: ['Invalid pk "999999" - object does not exist.'] },
      ],
      [
        'a gift card given as text',
        { type: 'barcode', identifier: 'g2', linked_giftcard: 'abc' },
        { linked_giftcard: ['A valid integer is required.'] },
      ],
      [
        'an unknown order position',
        { type: 'barcode', identifier: 'p1', linked_orderposition: 999999 },
        { linked_orderposition: ['Invalid pk "999999" - object does not exist.'] },
      ],
      [
        'info as a list',
        { type: 'barcode', identifier: 'i1', info: [] },
        { info: ['Expected a dictionary of items but got type "list".'] },
      ],
    ])('refuses %s with 400 naming the field, creating nothing', async (_label, body, errors) => {
      const before = await t.db.query('SELECT count(*)::int AS n FROM reusable_medium');
      const res = await send('post', `${O}/reusablemedia/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await t.db.query('SELECT count(*)::int AS n FROM reusable_medium')).toEqual(before);
    });

    it("refuses another organizer's gift card and order position with 400", async () => {
      const card = await giftcard(O2, token2);
      const { position } = await order('org2', token2);
      const res = await send('post', `${O}/reusablemedia/`, {
        type: 'barcode',
        identifier: 'FOREIGN',
        linked_giftcard: card.id,
        linked_orderposition: position.id,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        linked_orderposition: [`Invalid pk "${position.id}" - object does not exist.`],
        linked_giftcard: [`Invalid pk "${card.id}" - object does not exist.`],
      });
    });

    it("answers 404 for an unknown id and another organizer's medium; DELETE is 405", async () => {
      const other = await medium({}, O2, token2);
      for (const id of [other.id, 999999]) expect((await get(`${O}/reusablemedia/${id}/`)).status).toBe(404);
      const m = await medium();
      const res = await send('delete', `${O}/reusablemedia/${m.id}/`);
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
      expect((await get(`${O}/reusablemedia/${m.id}/`)).status).toBe(200);
    });
  });

  describe('update', () => {
    it('PATCH changes the fields sent, keeps type and identifier, moves updated and logs', async () => {
      const m = await medium({ type: 'nfc_uid', identifier: 'KEEP-1', notes: 'a' });
      const card = await giftcard();
      const res = await send('patch', `${O}/reusablemedia/${m.id}/`, {
        type: 'barcode',
        identifier: 'CHANGED',
        active: false,
        linked_giftcard: card.id,
        id: 5,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...m,
        active: false,
        linked_giftcard: card.id,
        updated: expect.any(String),
      });
      expect(Date.parse(res.body.updated)).toBeGreaterThan(Date.parse(m.updated));
      expect((await get(`${O}/reusablemedia/${m.id}/`)).body).toEqual(res.body);
      const logged = await t.db.query(
        "SELECT action_type FROM log_entry WHERE content_type = 'reusablemedium' AND object_id = $1 ORDER BY id",
        [m.id],
      );
      expect(logged.map((l: { action_type: string }) => l.action_type)).toEqual([
        'pretix.reusable_medium.created',
        'pretix.reusable_medium.changed',
      ]);
    });

    it('a PATCH changing nothing keeps updated and logs nothing', async () => {
      const m = await medium({ notes: 'x' });
      const res = await send('patch', `${O}/reusablemedia/${m.id}/`, { notes: 'x', identifier: 'other' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(m);
    });

    it('PUT resets omitted fields to their defaults and keeps type and identifier', async () => {
      const card = await giftcard();
      const m = await medium({ active: false, notes: 'n', info: { a: 1 }, linked_giftcard: card.id });
      const res = await send('put', `${O}/reusablemedia/${m.id}/`, { type: 'nfc_uid', notes: 'only this' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...m,
        active: true,
        notes: 'only this',
        info: {},
        linked_giftcard: null,
        updated: expect.any(String),
      });
      expect((await get(`${O}/reusablemedia/${m.id}/`)).body).toEqual(res.body);
    });

    it('refuses links of another organizer with 400 and changes nothing', async () => {
      const m = await medium();
      const card = await giftcard(O2, token2);
      const res = await send('patch', `${O}/reusablemedia/${m.id}/`, {
        linked_giftcard: card.id,
        notes: 'x',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ linked_giftcard: [`Invalid pk "${card.id}" - object does not exist.`] });
      expect((await get(`${O}/reusablemedia/${m.id}/`)).body).toEqual(m);
      expect((await send('patch', `${O}/reusablemedia/999999/`, { notes: 'x' })).status).toBe(404);
    });

    it('a deleted order clears the link of its position', async () => {
      const { code, position } = await order('org', token, { testmode: true });
      const m = await medium({ linked_orderposition: position.id });
      expect((await send('delete', `${O}/events/sample/orders/${code}/`)).status).toBe(204);
      expect((await get(`${O}/reusablemedia/${m.id}/`)).body.linked_orderposition).toBeNull();
    });
  });

  describe('list', () => {
    let a: Medium;
    let b: Medium;
    let c: Medium;
    let cardId: number;
    let positionId: number;
    let since: string;

    beforeAll(async () => {
      const card = await giftcard(O2, token2, { owner_ticket: (await order('org2', token2)).position.id });
      cardId = card.id;
      positionId = (await order('org2', token2)).position.id;
      a = await medium({ identifier: 'L-A', linked_giftcard: cardId }, O2, token2);
      b = await medium({ identifier: 'L-B', type: 'nfc_uid', active: false }, O2, token2);
      await new Promise((r) => setTimeout(r, 20));
      since = new Date().toISOString();
      c = await medium({ identifier: 'L-C', linked_orderposition: positionId }, O2, token2);
    });

    const ids = (res: { body: { results: Medium[] } }) => res.body.results.map((m) => m.id);

    it('orders by -updated, -id by default and sends X-Page-Generated', async () => {
      const all = await get(`${O2}/reusablemedia/`, token2);
      expect(ids(all).slice(0, 3)).toEqual([c.id, b.id, a.id]);
      expect(all.headers['x-page-generated']).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      await send('patch', `${O2}/reusablemedia/${a.id}/`, { notes: 'touched' }, token2);
      expect(ids(await get(`${O2}/reusablemedia/`, token2))[0]).toBe(a.id);
      const byIdentifier = ids(await get(`${O2}/reusablemedia/?ordering=-identifier`, token2));
      expect(byIdentifier.filter((id) => [a.id, b.id, c.id].includes(id))).toEqual([c.id, b.id, a.id]);
    });

    it('filters by identifier, type, active, customer, dates and links', async () => {
      const q = async (query: string) => ids(await get(`${O2}/reusablemedia/?${query}`, token2));
      expect(await q('identifier=L-B')).toEqual([b.id]);
      expect(await q('identifier=l-b')).toEqual([]);
      expect(await q('type=nfc_uid')).toEqual([b.id]);
      expect(await q('active=false')).toEqual([b.id]);
      expect(await q('customer=C1')).toEqual([]);
      expect(await q(`created_since=${encodeURIComponent(since)}`)).toEqual([c.id]);
      expect(await q(`updated_since=${encodeURIComponent(since)}&ordering=id`)).toEqual(
        expect.arrayContaining([c.id]),
      );
      expect(await q(`linked_giftcard=${cardId}`)).toEqual([a.id]);
      expect(await q(`linked_orderposition=${positionId}`)).toEqual([c.id]);
      const bad = await get(`${O2}/reusablemedia/?created_since=yesterday`, token2);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ created_since: ['Enter a valid date/time.'] });
      const long = await get(`${O2}/reusablemedia/?identifier=${'x'.repeat(201)}`, token2);
      expect(long.status).toBe(400);
      expect(long.body).toEqual({
        identifier: ['Ensure this value has at most 200 characters (it has 201).'],
      });
      const badInt = await get(`${O2}/reusablemedia/?linked_giftcard=x`, token2);
      expect(badInt.status).toBe(400);
    });

    it('expands the linked gift card (with its owner ticket), the order position and the customer', async () => {
      const card = (await get(`${O2}/giftcards/${cardId}/`, token2)).body;
      const plain = (await get(`${O2}/reusablemedia/${a.id}/`, token2)).body;
      const withCard = await get(`${O2}/reusablemedia/${a.id}/?expand=linked_giftcard`, token2);
      expect(withCard.body).toEqual({ ...plain, linked_giftcard: card });
      const withOwner = await get(
        `${O2}/reusablemedia/${a.id}/?expand=linked_giftcard&expand=linked_giftcard.owner_ticket`,
        token2,
      );
      expect(withOwner.body.linked_giftcard).toMatchObject({
        id: cardId,
        owner_ticket: { id: card.owner_ticket, order: { event: 'sample' } },
      });
      const withPosition = await get(
        `${O2}/reusablemedia/?identifier=L-C&expand=linked_orderposition&expand=customer`,
        token2,
      );
      expect(withPosition.body.results[0].linked_orderposition).toMatchObject({
        id: positionId,
        order: { code: expect.any(String), event: 'sample' },
        item: items.org2,
      });
      expect(withPosition.body.results[0].customer).toBeNull();
      const list = await get(`${O2}/reusablemedia/?expand=linked_giftcard&identifier=L-B`, token2);
      expect(list.body.results[0].linked_giftcard).toBeNull();
    });

    it('runs a fixed number of SQL statements whatever the page size (at most 4 with authentication)', async () => {
      for (let i = 0; i < 50; i++) await medium({}, O2, token2);
      const one = await listStatements(() => get(`${O2}/reusablemedia/?page_size=1`, token2));
      const fifty = await listStatements(() => get(`${O2}/reusablemedia/?page_size=50`, token2));
      expect([one.rows, fifty.rows]).toEqual([1, 50]);
      expect(fifty.statements).toBe(one.statements);
      expect(fifty.statements).toBeLessThanOrEqual(4);
      const expanded = await listStatements(() =>
        get(`${O2}/reusablemedia/?page_size=50&expand=linked_giftcard&expand=linked_orderposition`, token2),
      );
      const expandedOne = await listStatements(() =>
        get(`${O2}/reusablemedia/?page_size=1&expand=linked_giftcard&expand=linked_orderposition`, token2),
      );
      expect(expanded.statements).toBeLessThanOrEqual(expandedOne.statements + 8);
      const detail = await listStatements(() => get(`${O2}/reusablemedia/${a.id}/`, token2));
      expect(detail.statements).toBeLessThanOrEqual(3);
    });
  });

  describe('lookup', () => {
    const lookup = (body: object, base = O, as = token, query = '') =>
      send('post', `${base}/reusablemedia/lookup/${query}`, body, as);

    it("finds the organizer's own medium, answers null when nothing matches", async () => {
      const { position } = await order('org', token);
      const m = await medium({ type: 'nfc_uid', identifier: 'OWN-1', linked_orderposition: position.id });
      const found = await lookup({ type: 'nfc_uid', identifier: 'OWN-1' });
      expect(found.status).toBe(200);
      expect(found.body).toEqual({ result: m });
      const expanded = await lookup(
        { type: 'nfc_uid', identifier: 'OWN-1' },
        O,
        token,
        '?expand=linked_orderposition',
      );
      expect(expanded.body.result.linked_orderposition).toMatchObject({ id: position.id });
      expect((await lookup({ type: 'barcode', identifier: 'OWN-1' })).body).toEqual({ result: null });
      expect((await lookup({ type: 'nfc_uid', identifier: 'nothing' })).body).toEqual({ result: null });
    });

    it('needs type and identifier', async () => {
      const res = await lookup({});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        type: ['This field is required.'],
        identifier: ['This field is required.'],
      });
      expect((await lookup({ type: 'x', identifier: 'y' })).body).toEqual({
        type: ['"x" is not a valid choice.'],
      });
    });

    it('needs the write permission: 403 with read only, or with gift card permissions only', async () => {
      for (const as of [reader, giftcardsOnly]) {
        const res = await lookup({ type: 'barcode', identifier: 'x' }, O, as);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${O}/reusablemedia/`, reader)).status).toBe(200);
      expect(
        (await send('post', `${O}/reusablemedia/`, { type: 'barcode', identifier: 'r' }, reader)).status,
      ).toBe(403);
      expect((await get(`${O}/reusablemedia/`, giftcardsOnly)).status).toBe(403);
    });

    it('finds media of issuers sharing them under an acceptance, with only the gift card', async () => {
      const card = await giftcard(O2, token2, { value: '40.00' });
      const { position } = await order('org2', token2);
      const foreign = await medium(
        {
          type: 'nfc_uid',
          identifier: 'SHARED-CHIP',
          linked_giftcard: card.id,
          linked_orderposition: position.id,
        },
        O2,
        token2,
      );
      const body = { type: 'nfc_uid', identifier: 'SHARED-CHIP' };
      expect((await lookup(body)).body).toEqual({ result: null });

      // Acceptance without reusable_media: still nothing.
      expect((await runCli(t, ['accept-giftcards', '--issuer', 'org2', '--acceptor', 'org'])).code).toBe(0);
      expect((await lookup(body)).body).toEqual({ result: null });

      // With reusable_media: found, without order position and customer.
      const shared = await runCli(t, [
        'accept-giftcards',
        '--issuer',
        'org2',
        '--acceptor',
        'org',
        '--reusable-media',
      ]);
      expect(JSON.parse(shared.stdout)).toMatchObject({ reusable_media: true, created: false });
      const found = await lookup(body);
      expect(found.status).toBe(200);
      expect(found.body).toEqual({
        result: { ...foreign, organizer: 'org2', linked_orderposition: null, customer: null },
      });
      const expanded = await lookup(body, O, token, '?expand=linked_giftcard&expand=linked_orderposition');
      expect(expanded.body.result.linked_giftcard).toEqual({ ...card, issuer: 'org2', owner_ticket: null });
      expect(expanded.body.result.linked_orderposition).toBeNull();
      // The acceptor can then pay with the linked card.
      const paid = await send('post', `${O}/giftcards/${card.id}/transact/?include_accepted=true`, {
        value: '-15.00',
      });
      expect(paid.status).toBe(200);
      expect(paid.body.value).toBe('25.00');
      // The issuer itself still sees everything.
      expect((await lookup(body, O2, token2)).body.result).toEqual(foreign);
      // The detail route never shows another organizer's medium.
      expect((await get(`${O}/reusablemedia/${foreign.id}/`)).status).toBe(404);
    });

    it("prefers the organizer's own medium over an issuer's with the same identifier", async () => {
      await medium({ type: 'barcode', identifier: 'BOTH' }, O2, token2);
      const own = await medium({ type: 'barcode', identifier: 'BOTH' });
      expect((await lookup({ type: 'barcode', identifier: 'BOTH' })).body).toEqual({ result: own });
    });

    it('an inactive acceptance shares no media', async () => {
      await runCli(t, [
        'accept-giftcards',
        '--issuer',
        'org2',
        '--acceptor',
        'org',
        '--reusable-media',
        '--inactive',
      ]);
      expect((await lookup({ type: 'nfc_uid', identifier: 'SHARED-CHIP' })).body).toEqual({ result: null });
    });
  });
});
