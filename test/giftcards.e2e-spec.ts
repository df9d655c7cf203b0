import type { Response } from 'supertest';
import { Principal, TeamGrant } from '../src/auth/principal';
import { PermissionSet } from '../src/auth/permissions';
import {
  ISSUER_PERMISSION_NEEDED,
  GiftCardAcceptancesService,
} from '../src/giftcards/giftcard-acceptances.service';
import type { DomainError } from '../src/common/errors';
import { domainAnswer } from '../src/common/http/exception.filter';
import { OrganizersService } from '../src/organizers/organizers.service';
import { runCli } from './cli-harness';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';
import { ensureBuilt } from './worker-harness';

/** The HTTP answer the exception filter gives for what a service call rejects with. */
async function answerOf(call: Promise<unknown>) {
  return call.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: DomainError) => domainAnswer(err),
  );
}

/**
 * `O/giftcards/`, `…/transact/`, `…/transactions/` and `O/giftcards/acceptance/` (spec "Gift cards"; compat
 * §3.4), with the permissions of docs/permissions.md (`organizer.giftcards:read|write`), the CLI
 * `accept-giftcards`, fixed statement counts and real parallel debits.
 */
describe('gift cards', () => {
  let t: TestApp;
  let token: string;
  let token2: string;
  let reader: string;
  let writer: string;
  let mediaOnly: string;
  let position: { id: number; secret: string; code: string };
  let position2: number;
  const O = '/api/v1/organizers/org';
  const O2 = '/api/v1/organizers/org2';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const INSUFFICIENT = { value: ['The gift card does not have sufficient credit for this operation.'] };
  const FIXED = 'This field cannot be changed after the gift card has been created.';
  const DUPLICATE =
    'A gift card with the same secret already exists in your or an affiliated organizer account.';

  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));
  const send = (method: 'post' | 'patch' | 'put' | 'delete', path: string, body?: unknown, as = token) =>
    t
      .http()
      [method](path)
      .set('Authorization', auth(as))
      .send(body as object);

  type Card = { id: number; secret: string; value: string } & Record<string, unknown>;

  async function ok<T = Record<string, unknown>>(res: Response, status = 201): Promise<T> {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  const card = async (body: object = {}, base = O, as = token): Promise<Card> =>
    ok<Card>(await send('post', `${base}/giftcards/`, { currency: 'EUR', value: '10.00', ...body }, as));

  async function logs(
    cardId: number,
  ): Promise<{ action_type: string; organizer_id: number; data: unknown }[]> {
    return t.db.query(
      "SELECT action_type, organizer_id, data FROM log_entry WHERE content_type = 'giftcard' AND object_id = $1 ORDER BY id",
      [cardId],
    );
  }

  async function transactionRows(cardId: number): Promise<{ value: string; acceptor_id: number }[]> {
    return t.db.query(
      'SELECT value, acceptor_id FROM giftcard_transaction WHERE giftcard_id = $1 ORDER BY id',
      [cardId],
    );
  }

  let orgId: number;
  let org2Id: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, organizerId: orgId } = await bootstrapOrganizer(t, 'org'));
    ({ token: token2, organizerId: org2Id } = await bootstrapOrganizer(t, 'org2'));
    await bootstrapOrganizer(t, 'org3');
    reader = await teamToken(t, 'org', { organizerPermissions: ['organizer.giftcards:read'] });
    writer = await teamToken(t, 'org', { organizerPermissions: ['organizer.giftcards:write'] });
    mediaOnly = await teamToken(t, 'org', {
      organizerPermissions: ['organizer.reusablemedia:read', 'organizer.reusablemedia:write'],
    });
    // An order position of each organizer, for owner tickets.
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
      const order = await ok<{ code: string; positions: { id: number; secret: string }[] }>(
        await send('post', `${E}/orders/`, { positions: [{ item: item.id }] }, as),
      );
      if (org === 'org') position = { ...order.positions[0], code: order.code };
      else position2 = order.positions[0].id;
    }
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a card with its initial value booked as the first transaction, logged', async () => {
      const res = await send('post', `${O}/giftcards/`, {
        secret: 'HLBYVELFRC77NCQY',
        currency: 'EUR',
        value: '13.37',
        id: 999,
        issuer: 'org2',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        secret: 'HLBYVELFRC77NCQY',
        issuance: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        value: '13.37',
        currency: 'EUR',
        testmode: false,
        expires: null,
        conditions: null,
        owner_ticket: null,
        issuer: 'org',
      });
      expect(res.body.id).not.toBe(999);
      expect((await get(`${O}/giftcards/${res.body.id}/`)).body).toEqual(res.body);
      const txs = await get(`${O}/giftcards/${res.body.id}/transactions/`);
      expect(txs.status).toBe(200);
      expect(txs.body).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            id: expect.any(Number),
            datetime: expect.stringMatching(/Z$/),
            value: '13.37',
            event: null,
            order: null,
            text: null,
            info: null,
            acceptor: 'org',
          },
        ],
      });
      expect((await logs(res.body.id)).map((l) => l.action_type)).toEqual([
        'pretix.giftcards.transaction.manual',
        'pretix.giftcards.created',
      ]);
    });

    it('generates a 16-character secret when none is sent, and books an initial 0.00 too', async () => {
      const c = await card({ value: 0 });
      expect(c.secret).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ3789]{16}$/);
      expect(c.value).toBe('0.00');
      expect(await transactionRows(c.id)).toEqual([{ value: '0.00', acceptor_id: orgId }]);
    });

    it('stores every optional field', async () => {
      const c = await card({
        secret: 'FULL-1.x',
        value: 20,
        testmode: true,
        expires: '2031-01-01T12:00:00+02:00',
        conditions: 'Only on weekdays',
        owner_ticket: position.id,
      });
      expect(c).toMatchObject({
        secret: 'FULL-1.x',
        value: '20.00',
        testmode: true,
        expires: '2031-01-01T10:00:00Z',
        conditions: 'Only on weekdays',
        owner_ticket: position.id,
      });
      expect((await get(`${O}/giftcards/${c.id}/`)).body).toEqual(c);
    });

    it('takes the owner ticket by its secret, and expands it with its order', async () => {
      const c = await card({ owner_ticket: position.secret });
      expect(c.owner_ticket).toBe(position.id);
      const res = await get(`${O}/giftcards/${c.id}/?expand=owner_ticket`);
      expect(res.status).toBe(200);
      expect(res.body.owner_ticket).toMatchObject({
        id: position.id,
        secret: position.secret,
        order: { code: position.code, event: 'sample' },
        positionid: 1,
        price: '10.00',
      });
      const list = await get(`${O}/giftcards/?expand=owner_ticket&secret=${c.secret}`);
      expect(list.body.results).toEqual([res.body]);
    });

    it('keeps secrets unique per organizer only', async () => {
      await card({ secret: 'SHARED' });
      const dup = await send('post', `${O}/giftcards/`, { secret: 'SHARED', currency: 'EUR', value: 1 });
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ secret: [DUPLICATE] });
      const other = await card({ secret: 'SHARED' }, O2, token2);
      expect(other.issuer).toBe('org2');
    });

    it.each<[string, object, object]>([
      ['nothing', {}, { currency: ['This field is required.'], value: ['This field is required.'] }],
      ['an unknown currency', { currency: 'XXY', value: 1 }, { currency: ['"XXY" is not a valid choice.'] }],
      [
        'a negative value',
        { currency: 'EUR', value: '-0.01' },
        { value: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        'three decimals',
        { currency: 'EUR', value: '1.234' },
        { value: ['Ensure that there are no more than 2 decimal places.'] },
      ],
      ['a text value', { currency: 'EUR', value: 'ten' }, { value: ['A valid number is required.'] }],
      [
        'a secret with a space',
        { currency: 'EUR', value: 1, secret: 'A B' },
        { secret: ['The giftcard code may only contain letters, numbers, dots and dashes.'] },
      ],
      [
        'a null secret',
        { currency: 'EUR', value: 1, secret: null },
        { secret: ['This field may not be null.'] },
      ],
      [
        'a text testmode',
        { currency: 'EUR', value: 1, testmode: 'yes' },
        { testmode: ['Must be a valid boolean.'] },
      ],
      [
        'a bad expiry',
        { currency: 'EUR', value: 1, expires: 'tomorrow' },
        {
          expires: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [
        'an unknown owner ticket',
        { currency: 'EUR', value: 1, owner_ticket: 999999 },
        { owner_ticket: ['Invalid pk "999999" - object does not exist.'] },
      ],
      [
        'an unknown ticket secret',
        { currency: 'EUR', value: 1, owner_ticket: 'nosuchsecret' },
        { owner_ticket: ['Object with secret=nosuchsecret does not exist.'] },
      ],
    ])('refuses %s with 400 naming the field, creating nothing', async (_label, body, errors) => {
      const before = await t.db.query('SELECT count(*)::int AS n FROM giftcard');
      const res = await send('post', `${O}/giftcards/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await t.db.query('SELECT count(*)::int AS n FROM giftcard')).toEqual(before);
    });

    it("refuses another organizer's order position as owner ticket", async () => {
      const res = await send('post', `${O}/giftcards/`, {
        currency: 'EUR',
        value: 1,
        owner_ticket: position2,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ owner_ticket: [`Invalid pk "${position2}" - object does not exist.`] });
    });

    it("answers 404 for an unknown id and another organizer's card", async () => {
      const other = await card({}, O2, token2);
      for (const id of [999999, other.id]) {
        const res = await get(`${O}/giftcards/${id}/`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    });

    it('has no DELETE: 405, the card survives', async () => {
      const c = await card();
      const res = await send('delete', `${O}/giftcards/${c.id}/`);
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
      expect((await get(`${O}/giftcards/${c.id}/`)).status).toBe(200);
    });
  });

  describe('list', () => {
    let cards: Card[];

    beforeAll(async () => {
      cards = [
        await card({ secret: 'ABCDEF', value: 5 }, O2, token2),
        await card({ secret: 'DEF', value: 7, testmode: true }, O2, token2),
        await card({ secret: 'EXPIRED-1', value: 7, expires: '2001-01-01T00:00:00Z' }, O2, token2),
      ];
    });

    const secrets = (res: { body: { results: Card[] } }) => res.body.results.map((c) => c.secret);

    it('lists the cards of the organizer by id with the list envelope', async () => {
      const res = await get(`${O2}/giftcards/`, token2);
      expect(res.status).toBe(200);
      expect(res.body.count).toBeGreaterThanOrEqual(3);
      const ids = res.body.results.map((c: Card) => c.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      expect(res.body.results).toEqual(expect.arrayContaining(cards));
    });

    it('filters by secret (exact, case-insensitive), testmode, expired and value', async () => {
      expect(secrets(await get(`${O2}/giftcards/?secret=DEF`, token2))).toEqual(['DEF']);
      expect(secrets(await get(`${O2}/giftcards/?secret=def`, token2))).toEqual(['DEF']);
      expect(secrets(await get(`${O2}/giftcards/?secret=EF`, token2))).toEqual([]);
      expect(secrets(await get(`${O2}/giftcards/?testmode=true`, token2))).toEqual(['DEF']);
      expect(secrets(await get(`${O2}/giftcards/?testmode=false`, token2))).not.toContain('DEF');
      expect(secrets(await get(`${O2}/giftcards/?expired=true`, token2))).toEqual(['EXPIRED-1']);
      expect(secrets(await get(`${O2}/giftcards/?expired=false`, token2))).not.toContain('EXPIRED-1');
      expect(secrets(await get(`${O2}/giftcards/?value=7.00&ordering=-id`, token2))).toEqual([
        'EXPIRED-1',
        'DEF',
      ]);
    });

    it('answers 400 for a malformed boolean filter and 404 for a page beyond the last', async () => {
      const bad = await get(`${O2}/giftcards/?testmode=maybe`, token2);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ testmode: ['Must be a valid boolean.'] });
      const long = await get(`${O2}/giftcards/?secret=${'A'.repeat(201)}`, token2);
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ secret: ['Ensure this value has at most 200 characters (it has 201).'] });
      const page = await get(`${O2}/giftcards/?page=99`, token2);
      expect(page.status).toBe(404);
      expect(page.body).toEqual({ detail: 'Invalid page.' });
    });

    it('pages with absolute links and the full count', async () => {
      const res = await get(`${O2}/giftcards/?page_size=2&page=2`, token2);
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(Math.min(2, res.body.count - 2));
      expect(res.body.previous).toMatch(/\/api\/v1\/organizers\/org2\/giftcards\/\?page_size=2$/);
    });

    it('runs a fixed number of SQL statements whatever the page size (at most 4 with authentication)', async () => {
      for (let i = 0; i < 50; i++) await card({ value: 1 }, O2, token2);
      const one = await listStatements(() => get(`${O2}/giftcards/?page_size=1`, token2));
      const fifty = await listStatements(() => get(`${O2}/giftcards/?page_size=50`, token2));
      expect([one.rows, fifty.rows]).toEqual([1, 50]);
      expect(fifty.statements).toBe(one.statements);
      expect(fifty.statements).toBeLessThanOrEqual(4);
      const detail = await listStatements(() => get(`${O2}/giftcards/${cards[0].id}/`, token2));
      expect(detail.statements).toBeLessThanOrEqual(3);
      const txs = await listStatements(() => get(`${O2}/giftcards/${cards[0].id}/transactions/`, token2));
      expect(txs.statements).toBeLessThanOrEqual(3);
    });
  });

  describe('update', () => {
    it('PATCH of value books the difference; an unchanged value books nothing', async () => {
      const c = await card({ value: '23.00' });
      const res = await send('patch', `${O}/giftcards/${c.id}/`, { value: '14.00' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...c, value: '14.00' });
      expect((await send('patch', `${O}/giftcards/${c.id}/`, { value: '14.00' })).status).toBe(200);
      expect((await transactionRows(c.id)).map((r) => r.value)).toEqual(['23.00', '-9.00']);
      expect((await get(`${O}/giftcards/${c.id}/`)).body.value).toBe('14.00');
      expect((await logs(c.id)).map((l) => l.action_type)).toEqual([
        'pretix.giftcards.transaction.manual',
        'pretix.giftcards.created',
        'pretix.giftcards.transaction.manual',
      ]);
    });

    it('refuses a negative value with 400 and keeps the card', async () => {
      const c = await card();
      const res = await send('patch', `${O}/giftcards/${c.id}/`, { value: '-10.00' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ value: ['Ensure this value is greater than or equal to 0.'] });
      expect((await get(`${O}/giftcards/${c.id}/`)).body).toEqual(c);
    });

    it('changes expires, conditions and the owner ticket, logged as modified', async () => {
      const c = await card();
      const res = await send('patch', `${O}/giftcards/${c.id}/`, {
        conditions: 'Weekdays',
        expires: '2032-05-01T00:00:00Z',
        owner_ticket: position.secret,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...c,
        conditions: 'Weekdays',
        expires: '2032-05-01T00:00:00Z',
        owner_ticket: position.id,
      });
      expect((await get(`${O}/giftcards/${c.id}/`)).body).toEqual(res.body);
      expect((await logs(c.id)).map((l) => l.action_type)).toContain('pretix.giftcards.modified');
      expect(await transactionRows(c.id)).toHaveLength(1);
    });

    it('accepts secret, currency and testmode with their current values; other values are 400 and change nothing', async () => {
      const c = await card({ secret: 'FIXED-1', conditions: 'x' });
      const same = await send('patch', `${O}/giftcards/${c.id}/`, {
        secret: 'FIXED-1',
        currency: 'EUR',
        testmode: false,
        conditions: 'y',
      });
      expect(same.status).toBe(200);
      expect(same.body.conditions).toBe('y');
      const res = await send('patch', `${O}/giftcards/${c.id}/`, {
        secret: 'FIXED-2',
        currency: 'USD',
        testmode: true,
        conditions: 'z',
        value: 99,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ secret: [FIXED], currency: [FIXED], testmode: [FIXED] });
      expect((await get(`${O}/giftcards/${c.id}/`)).body).toEqual({ ...c, conditions: 'y' });
      expect(await transactionRows(c.id)).toHaveLength(1);
      const put = await send('put', `${O}/giftcards/${c.id}/`, {
        currency: 'EUR',
        value: 10,
        testmode: true,
      });
      expect(put.status).toBe(400);
      expect(put.body).toEqual({ testmode: [FIXED] });
    });

    it('PUT needs currency and value and resets omitted fields, keeping secret and testmode', async () => {
      const c = await card({
        testmode: true,
        conditions: 'x',
        expires: '2031-01-01T00:00:00Z',
        owner_ticket: position.id,
      });
      const missing = await send('put', `${O}/giftcards/${c.id}/`, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        currency: ['This field is required.'],
        value: ['This field is required.'],
      });
      const res = await send('put', `${O}/giftcards/${c.id}/`, { currency: 'EUR', value: '12.50' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...c, value: '12.50', conditions: null, expires: null, owner_ticket: null });
      expect((await get(`${O}/giftcards/${c.id}/`)).body).toEqual(res.body);
      expect((await transactionRows(c.id)).map((r) => r.value)).toEqual(['10.00', '2.50']);
    });

    it("answers 404 for another organizer's card and an unknown id", async () => {
      const other = await card({}, O2, token2);
      for (const id of [other.id, 999999]) {
        const res = await send('patch', `${O}/giftcards/${id}/`, { conditions: 'x' });
        expect(res.status).toBe(404);
      }
      expect((await get(`${O2}/giftcards/${other.id}/`, token2)).body).toEqual(other);
    });
  });

  describe('transact', () => {
    it('adds and subtracts, storing text and info, answering the card with the new value', async () => {
      const c = await card({ value: '23.00' });
      const up = await send('post', `${O}/giftcards/${c.id}/transact/`, { value: '10.00' });
      expect(up.status).toBe(200);
      expect(up.body).toEqual({ ...c, value: '33.00' });
      const down = await send('post', `${O}/giftcards/${c.id}/transact/`, {
        value: -3.5,
        text: 'Coffee',
        info: { till: 4 },
      });
      expect(down.status).toBe(200);
      expect(down.body.value).toBe('29.50');
      expect((await get(`${O}/giftcards/${c.id}/`)).body.value).toBe('29.50');
      const txs = await get(`${O}/giftcards/${c.id}/transactions/?ordering=-id`);
      expect(
        txs.body.results.map((r: Record<string, unknown>) => [r.value, r.text, r.info, r.acceptor]),
      ).toEqual([
        ['-3.50', 'Coffee', { till: 4 }, 'org'],
        ['10.00', null, null, 'org'],
        ['23.00', null, null, 'org'],
      ]);
      const entries = await logs(c.id);
      expect(entries.filter((l) => l.action_type === 'pretix.giftcards.transaction.manual')).toHaveLength(3);
      expect(entries[entries.length - 1]).toEqual({
        action_type: 'pretix.giftcards.transaction.manual',
        organizer_id: orgId,
        data: { value: '-3.50', text: 'Coffee', acceptor_id: orgId },
      });
    });

    it('answers 409 when the value would become negative and books nothing', async () => {
      const c = await card({ value: '5.00' });
      const res = await send('post', `${O}/giftcards/${c.id}/transact/`, { value: '-5.01' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(INSUFFICIENT);
      expect((await get(`${O}/giftcards/${c.id}/`)).body.value).toBe('5.00');
      expect(await transactionRows(c.id)).toHaveLength(1);
      const all = await send('post', `${O}/giftcards/${c.id}/transact/`, { value: '-5.00' });
      expect(all.status).toBe(200);
      expect(all.body.value).toBe('0.00');
    });

    it.each<[object, object]>([
      [{}, { value: ['This field is required.'] }],
      [{ value: null }, { value: ['This field may not be null.'] }],
      [{ value: '1.001' }, { value: ['Ensure that there are no more than 2 decimal places.'] }],
      [{ value: 1, text: 5 }, { text: ['Not a valid string.'] }],
      [{ value: 1, info: [1] }, { info: ['Expected a dictionary of items but got type "list".'] }],
    ])('refuses %j with 400', async (body, errors) => {
      const c = await card();
      const res = await send('post', `${O}/giftcards/${c.id}/transact/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await transactionRows(c.id)).toHaveLength(1);
    });

    it("answers 404 for an unknown card and another organizer's card (without acceptance)", async () => {
      const other = await card({}, O2, token2);
      for (const id of [999999, other.id]) {
        const res = await send('post', `${O}/giftcards/${id}/transact/?include_accepted=true`, { value: 1 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect(await transactionRows(other.id)).toHaveLength(1);
    });

    it('40 parallel debits of 10.00 on a 100.00 card: exactly 10 succeed, 30 answer 409, value 0.00, 11 transactions', async () => {
      const c = await card({ value: '100.00' });
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          send('post', `${O}/giftcards/${c.id}/transact/`, { value: '-10.00' }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 409)).toHaveLength(30);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual(INSUFFICIENT);
      expect(new Set(results.filter((r) => r.status === 200).map((r) => r.body.value)).size).toBe(10);
      expect((await get(`${O}/giftcards/${c.id}/`)).body.value).toBe('0.00');
      const txs = await get(`${O}/giftcards/${c.id}/transactions/`);
      expect(txs.body.count).toBe(11);
      const rows = await transactionRows(c.id);
      expect(rows).toHaveLength(11);
      expect(rows.reduce((sum, r) => sum + Math.round(Number(r.value) * 100), 0)).toBe(0);
    });
  });

  describe('transactions list', () => {
    it('pages the transactions by time and answers 403 for a card out of reach (a missing parent)', async () => {
      const c = await card({ value: 1 });
      for (let i = 0; i < 3; i++) await send('post', `${O}/giftcards/${c.id}/transact/`, { value: 1 });
      const page = await get(`${O}/giftcards/${c.id}/transactions/?page_size=3&page=2`);
      expect(page.status).toBe(200);
      expect(page.body.count).toBe(4);
      expect(page.body.results).toHaveLength(1);
      expect(page.body.previous).toMatch(/transactions\/\?page_size=3$/);
      const beyond = await get(`${O}/giftcards/${c.id}/transactions/?page=3`);
      expect(beyond.status).toBe(404);
      const other = await card({}, O2, token2);
      for (const id of [999999, other.id]) {
        const res = await get(`${O}/giftcards/${id}/transactions/`);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });
  });

  describe('permissions (organizer.giftcards:read / :write)', () => {
    it('lets a reader read but not write, a writer write but not read, and others nothing', async () => {
      const c = await card();
      for (const path of [
        `${O}/giftcards/`,
        `${O}/giftcards/${c.id}/`,
        `${O}/giftcards/${c.id}/transactions/`,
        `${O}/giftcards/acceptance/`,
      ]) {
        expect((await get(path, reader)).status).toBe(200);
        expect((await get(path, writer)).body).toEqual(DENIED);
        expect((await get(path, mediaOnly)).status).toBe(403);
      }
      for (const [method, path, body] of [
        ['post', `${O}/giftcards/`, { currency: 'EUR', value: 1 }],
        ['patch', `${O}/giftcards/${c.id}/`, { conditions: 'x' }],
        ['put', `${O}/giftcards/${c.id}/`, { currency: 'EUR', value: 1 }],
        ['post', `${O}/giftcards/${c.id}/transact/`, { value: 1 }],
      ] as const) {
        const res = await send(method, path, body, reader);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
        expect((await send(method, path, body, writer)).status).toBeLessThan(300);
      }
    });
  });

  describe('acceptance between organizers', () => {
    let issued: Card;
    const A = `${O}/giftcards/acceptance`;

    beforeAll(async () => {
      ensureBuilt(); // the CLI runs from dist/: build it here, outside any test's time
      issued = await card({ secret: 'ISSUED-BY-ORG2', value: '50.00' }, O2, token2);
    });

    it("a team token cannot accept another organizer's cards (the issuer side needs the permission too)", async () => {
      const res = await send('post', `${A}/`, { issuer: 'org2' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: ISSUER_PERMISSION_NEEDED });
      const unknown = await send('post', `${A}/`, { issuer: 'no-such-org' });
      expect(unknown.status).toBe(403);
      expect(unknown.body).toEqual({ detail: ISSUER_PERMISSION_NEEDED });
      const empty = await send('post', `${A}/`, {});
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ issuer: ['This field is required.'] });
      expect((await get(`${A}/`)).body.count).toBe(0);
    });

    it('without acceptance, include_accepted shows nothing of the other organizer', async () => {
      const list = await get(`${O}/giftcards/?include_accepted=true&secret=ISSUED-BY-ORG2`);
      expect(list.body.results).toEqual([]);
      expect((await get(`${O}/giftcards/${issued.id}/?include_accepted=true`)).status).toBe(404);
    });

    it('the CLI accept-giftcards makes org accept the cards of org2', async () => {
      const run = await runCli(t, ['accept-giftcards', '--issuer', 'org2', '--acceptor', 'org']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        acceptor: 'org',
        issuer: 'org2',
        active: true,
        reusable_media: false,
        created: true,
      });
      const list = await get(`${A}/`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [{ issuer: 'org2', active: true, reusable_media: false }],
      });
      expect((await get(`${A}/org2/`)).body).toEqual({ issuer: 'org2', active: true, reusable_media: false });
      expect((await get(`${A}/org3/`)).status).toBe(404);
      // The issuer's own list of acceptances (as acceptor) is empty: the relation has a direction.
      expect((await get(`${O2}/giftcards/acceptance/`, token2)).body.count).toBe(0);
      const logged = await t.db.query(
        "SELECT action_type, data FROM log_entry WHERE content_type = 'organizer' AND organizer_id = $1",
        [orgId],
      );
      expect(logged).toEqual([
        {
          action_type: 'pretix.giftcards.acceptance.added',
          data: { issuer: 'org2', active: true, reusable_media: false },
        },
      ]);
    });

    it('refuses unknown organizers and the same organizer on both sides in the CLI', async () => {
      const unknown = await runCli(t, ['accept-giftcards', '--issuer', 'nope', '--acceptor', 'org']);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('Unknown organizer "nope" (--issuer)');
      const same = await runCli(t, ['accept-giftcards', '--issuer', 'org', '--acceptor', 'org']);
      expect(same.code).not.toBe(0);
      expect(same.stderr).toContain('An organizer always accepts its own gift cards.');
    });

    it('include_accepted lists, retrieves and transacts accepted cards; they stay out of the plain list', async () => {
      const plain = await get(`${O}/giftcards/?secret=ISSUED-BY-ORG2`);
      expect(plain.body.results).toEqual([]);
      const list = await get(`${O}/giftcards/?include_accepted=true&secret=ISSUED-BY-ORG2`);
      expect(list.body.results).toEqual([{ ...issued, issuer: 'org2' }]);
      const own = await get(`${O}/giftcards/?include_accepted=true`);
      expect(own.body.results.some((c: Card) => c.issuer === 'org')).toBe(true);
      const detail = await get(`${O}/giftcards/${issued.id}/?include_accepted=true`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(issued);
      expect((await get(`${O}/giftcards/${issued.id}/`)).status).toBe(404);
      expect((await send('post', `${O}/giftcards/${issued.id}/transact/`, { value: -1 })).status).toBe(404);

      const debit = await send('post', `${O}/giftcards/${issued.id}/transact/?include_accepted=true`, {
        value: '-20.00',
        text: 'Bar at org',
      });
      expect(debit.status).toBe(200);
      expect(debit.body).toEqual({ ...issued, value: '30.00' });
      const over = await send('post', `${O}/giftcards/${issued.id}/transact/?include_accepted=true`, {
        value: -31,
      });
      expect(over.status).toBe(409);
      // The issuer sees the debit booked by the acceptor, logged in its own log.
      const txs = await get(`${O2}/giftcards/${issued.id}/transactions/?ordering=-id`, token2);
      expect(txs.body.results[0]).toMatchObject({ value: '-20.00', text: 'Bar at org', acceptor: 'org' });
      const viaAcceptor = await get(`${O}/giftcards/${issued.id}/transactions/?include_accepted=true`);
      expect(viaAcceptor.body.count).toBe(2);
      expect((await logs(issued.id)).pop()).toEqual({
        action_type: 'pretix.giftcards.transaction.manual',
        organizer_id: org2Id,
        data: { value: '-20.00', text: 'Bar at org', acceptor_id: orgId },
      });
    });

    it('an accepted card cannot be updated (403), only transacted', async () => {
      const res = await send('patch', `${O}/giftcards/${issued.id}/?include_accepted=true`, {
        conditions: 'x',
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Accepted gift cards cannot be updated, use transact instead.' });
      expect((await get(`${O2}/giftcards/${issued.id}/`, token2)).body.conditions).toBeNull();
    });

    it('shows no owner ticket of the issuer to the acceptor', async () => {
      const owned = await card({ owner_ticket: position2 }, O2, token2);
      expect(owned.owner_ticket).toBe(position2);
      const seen = await get(`${O}/giftcards/${owned.id}/?include_accepted=true&expand=owner_ticket`);
      expect(seen.status).toBe(200);
      expect(seen.body.owner_ticket).toBeNull();
    });

    it('changing needs the issuer side too: 403 for a team token, 404 for an issuer not accepted', async () => {
      const res = await send('patch', `${A}/org2/`, { active: false });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: ISSUER_PERMISSION_NEEDED });
      expect((await send('patch', `${A}/org3/`, { active: false })).status).toBe(404);
      expect((await get(`${A}/org2/`)).body.active).toBe(true);
    });

    it('a user with the gift card write permission in both organizers may create and change it', async () => {
      const service = t.app.get(GiftCardAcceptancesService);
      const organizers = t.app.get(OrganizersService);
      const org = await organizers.ensure('org', 'org');
      const org3 = await organizers.ensure('org3', 'org3');
      const grant = (organizerId: number, permissions: string[]): TeamGrant => ({
        teamId: organizerId,
        teamName: 't',
        organizerId,
        organizerSlug: organizerId === org.id ? 'org' : 'org3',
        allEvents: false,
        eventIds: new Set(),
        eventPermissions: PermissionSet.empty(),
        organizerPermissions: new PermissionSet(false, new Set(permissions)),
      });
      const both = new Principal({ kind: 'user', userId: 1 }, [
        grant(org.id, ['organizer.giftcards:write']),
        grant(org3.id, ['organizer.giftcards:write']),
      ]);
      const readOnly = new Principal({ kind: 'user', userId: 1 }, [
        grant(org.id, ['organizer.giftcards:write']),
        grant(org3.id, ['organizer.giftcards:read']),
      ]);
      expect(await answerOf(service.create(org, readOnly, { issuer: 'org3' }))).toMatchObject({
        status: 403,
      });
      expect(await service.create(org, both, { issuer: 'org3', reusable_media: true })).toEqual({
        issuer: 'org3',
        active: true,
        reusable_media: true,
      });
      expect(await answerOf(service.create(org, both, { issuer: 'org3' }))).toMatchObject({
        status: 400,
        body: { issuer: ["This organizer's gift cards are already accepted."] },
      });
      expect(await answerOf(service.create(org, both, { issuer: 'org' }))).toMatchObject({
        status: 400,
        body: { issuer: ['An organizer always accepts its own gift cards.'] },
      });
      expect(await answerOf(service.update(org, readOnly, 'org3', { active: false }))).toMatchObject({
        status: 403,
      });
      expect(await service.update(org, both, 'org3', { active: false })).toEqual({
        issuer: 'org3',
        active: false,
        reusable_media: true,
      });
      expect((await get(`${A}/?active=false`)).body.results).toEqual([
        { issuer: 'org3', active: false, reusable_media: true },
      ]);
    });

    it('an inactive acceptance (CLI --inactive) takes the cards out of reach again', async () => {
      const run = await runCli(t, [
        'accept-giftcards',
        '--issuer',
        'org2',
        '--acceptor',
        'org',
        '--inactive',
      ]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ issuer: 'org2', active: false, created: false });
      expect((await get(`${O}/giftcards/${issued.id}/?include_accepted=true`)).status).toBe(404);
      const res = await send('post', `${O}/giftcards/${issued.id}/transact/?include_accepted=true`, {
        value: 1,
      });
      expect(res.status).toBe(404);
      await runCli(t, ['accept-giftcards', '--issuer', 'org2', '--acceptor', 'org']);
      expect((await get(`${O}/giftcards/${issued.id}/?include_accepted=true`)).status).toBe(200);
    });

    it('the acceptor ends an acceptance alone with DELETE (204), then 404', async () => {
      const res = await send('delete', `${A}/org2/`);
      expect(res.status).toBe(204);
      expect((await get(`${A}/org2/`)).status).toBe(404);
      expect((await send('delete', `${A}/org2/`)).status).toBe(404);
      expect((await get(`${O}/giftcards/${issued.id}/?include_accepted=true`)).status).toBe(404);
      const logged: { action_type: string }[] = await t.db.query(
        "SELECT action_type FROM log_entry WHERE content_type = 'organizer' AND organizer_id = $1 ORDER BY id",
        [orgId],
      );
      expect(logged.map((l) => l.action_type)).toEqual([
        'pretix.giftcards.acceptance.added', // CLI: org2
        'pretix.giftcards.acceptance.added', // user: org3
        'pretix.giftcards.acceptance.changed', // user: org3 inactive
        'pretix.giftcards.acceptance.changed', // CLI: org2 inactive
        'pretix.giftcards.acceptance.changed', // CLI: org2 active again
        'pretix.giftcards.acceptance.removed',
      ]);
    });
  });
});
