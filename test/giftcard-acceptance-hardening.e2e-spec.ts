import { auth, bootstrapOrganizer } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * README "Security", "Gift card acceptance": an organizer that accepts another issuer's gift cards may only debit
 * them (a negative `transact/` value; a credit or zero is 403 and books nothing), and in the transaction list of
 * such a card it sees the `text` and `info` of its own transactions only (others' are null). The issuer still sees
 * everything; on its own cards an organizer books anything, with or without `include_accepted`. pretix allows both
 * (see the report).
 */
describe('gift card acceptance hardening', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let cardId: number;
  const CREDIT_REFUSED = { detail: 'Accepted gift cards can only be debited, send a negative value.' };

  const G = (org: string) => `/api/v1/organizers/${org}/giftcards`;
  const send = (org: string, path: string, body: object) =>
    t
      .http()
      .post(`${G(org)}${path}`)
      .set('Authorization', auth(tokens[org]))
      .send(body);
  const get = (org: string, path: string) =>
    t
      .http()
      .get(`${G(org)}${path}`)
      .set('Authorization', auth(tokens[org]));
  const cardState = async () => {
    const [row] = await t.db.query<{ value: string; n: string }[]>(
      'SELECT g.value::text AS value, (SELECT count(*) FROM giftcard_transaction x WHERE x.giftcard_id = g.id) AS n FROM giftcard g WHERE g.id = $1',
      [cardId],
    );
    return { value: row.value, transactions: Number(row.n) };
  };
  type Tx = { value: string; text: string | null; info: unknown; acceptor: string };
  const txsOf = async (org: string, query: string): Promise<Tx[]> => {
    const res = await get(org, `/${cardId}/transactions/?ordering=id${query}`);
    expect(res.status).toBe(200);
    return (res.body.results as Tx[]).map(({ value, text, info, acceptor }) => ({
      value,
      text,
      info,
      acceptor,
    }));
  };

  beforeAll(async () => {
    t = await startTestApp();
    for (const org of ['issuer', 'shop', 'bar']) {
      const b = await bootstrapOrganizer(t, org);
      tokens[org] = b.token;
      ids[org] = b.organizerId;
    }
    // `shop` and `bar` accept the gift cards of `issuer` (fixture written straight to the table).
    await t.db.query(
      'INSERT INTO giftcard_acceptance (issuer_id, acceptor_id, active, reusable_media) VALUES ($1, $2, true, false), ($1, $3, true, false)',
      [ids.issuer, ids.shop, ids.bar],
    );
    const created = await send('issuer', '/', { secret: 'ACCEPTED-CARD', currency: 'EUR', value: '50.00' });
    expect(created.status).toBe(201);
    cardId = created.body.id as number;
    const topUp = await send('issuer', `/${cardId}/transact/`, {
      value: '10.00',
      text: 'Issuer top-up',
      info: { cashier: 'issuer-till-1' },
    });
    expect(topUp.status).toBe(200);
  });
  afterAll(() => t.close());

  it.each([['5.00'], [5], ['0.00'], [0]])(
    'refuses an acceptor crediting the issuer card with %p: 403, value and transactions unchanged',
    async (value) => {
      const before = await cardState();
      const res = await send('shop', `/${cardId}/transact/?include_accepted=true`, {
        value,
        text: 'free money',
      });
      expect([res.status, res.body]).toEqual([403, CREDIT_REFUSED]);
      expect(await cardState()).toEqual(before);
    },
  );

  it('lets an acceptor debit the issuer card (200), and still answers 409 past the balance', async () => {
    const debit = await send('shop', `/${cardId}/transact/?include_accepted=true`, {
      value: '-20.00',
      text: 'Shop purchase S-1',
      info: { receipt: 'S-1' },
    });
    expect([debit.status, debit.body.value]).toEqual([200, '40.00']);
    const bar = await send('bar', `/${cardId}/transact/?include_accepted=true`, {
      value: '-5.00',
      text: 'Bar tab B-7',
      info: { receipt: 'B-7' },
    });
    expect([bar.status, bar.body.value]).toEqual([200, '35.00']);
    const over = await send('shop', `/${cardId}/transact/?include_accepted=true`, { value: '-99.00' });
    expect(over.status).toBe(409);
    expect(await cardState()).toEqual({ value: '35.00', transactions: 4 });
  });

  it('lets the issuer credit and an organizer credit its own card with include_accepted', async () => {
    const own = await send('shop', '/', { currency: 'EUR', value: '1.00' });
    expect(own.status).toBe(201);
    const credit = await send('shop', `/${own.body.id}/transact/?include_accepted=true`, { value: '4.00' });
    expect([credit.status, credit.body.value]).toEqual([200, '5.00']);
    const byIssuer = await send('issuer', `/${cardId}/transact/?include_accepted=true`, { value: '0.00' });
    expect(byIssuer.status).toBe(200);
    expect(await cardState()).toEqual({ value: '35.00', transactions: 5 });
  });

  it("shows an acceptor only its own transactions' text and info; the issuer sees all", async () => {
    const byIssuer = await txsOf('issuer', '');
    expect(byIssuer).toEqual([
      { value: '50.00', text: null, info: null, acceptor: 'issuer' },
      { value: '10.00', text: 'Issuer top-up', info: { cashier: 'issuer-till-1' }, acceptor: 'issuer' },
      { value: '-20.00', text: 'Shop purchase S-1', info: { receipt: 'S-1' }, acceptor: 'shop' },
      { value: '-5.00', text: 'Bar tab B-7', info: { receipt: 'B-7' }, acceptor: 'bar' },
      { value: '0.00', text: null, info: null, acceptor: 'issuer' },
    ]);
    const hidden = (tx: Tx) => ({ ...tx, text: null, info: null });
    expect(await txsOf('shop', '&include_accepted=true')).toEqual([
      hidden(byIssuer[0]),
      hidden(byIssuer[1]),
      byIssuer[2],
      hidden(byIssuer[3]),
      hidden(byIssuer[4]),
    ]);
    expect(await txsOf('bar', '&include_accepted=true')).toEqual([
      hidden(byIssuer[0]),
      hidden(byIssuer[1]),
      hidden(byIssuer[2]),
      byIssuer[3],
      hidden(byIssuer[4]),
    ]);
    // The issuer with include_accepted=true (its own card in reach either way) still sees everything.
    expect(await txsOf('issuer', '&include_accepted=true')).toEqual(byIssuer);
  });
});
