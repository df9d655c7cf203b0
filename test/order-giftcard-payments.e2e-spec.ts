import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { orderLog, placePaymentOrder } from './order-payment-fixtures';

/**
 * Gift card payments and refunds of orders (pretix `GiftCardPayment`; doc "Order payment endpoints", "Order refund
 * endpoints", `use_gift_cards` of "Creating orders", pretix 2026.03): value moves exactly once, in the order's
 * transaction, never below zero, only with cards the event's organizer accepts.
 */
describe('order gift card payments', () => {
  let t: TestApp;
  let token: string;
  let token2: string;
  let token3: string;
  let reader: string;
  let item: number;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const MSG = {
    usedMeanwhile: 'This gift card was used in the meantime. Please try again.',
    notAccepted: 'This gift card is not accepted by this event organizer.',
    unknown: 'This gift card is not known.',
    currency: 'This gift card does not support this currency.',
    expired: 'This gift card is no longer valid.',
    testmodeOnly: 'This gift card can only be used in test mode.',
    empty: 'All credit on this gift card has been used.',
  };
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));

  type Card = { id: number; secret: string };
  async function card(value: string, extra: object = {}, org = 'org', tok = token): Promise<Card> {
    const res = await post(`/api/v1/organizers/${org}/giftcards/`, { currency: 'EUR', value, ...extra }, tok);
    expect(res.status).toBe(201);
    return res.body as Card;
  }
  const valueOf = async (id: number): Promise<string> =>
    (await t.db.query<{ value: string }[]>('SELECT value::text FROM giftcard WHERE id = $1', [id]))[0].value;
  const txRows = (
    id: number,
  ): Promise<
    { value: string; order_id: number | null; payment_id: number | null; refund_id: number | null }[]
  > =>
    t.db.query(
      `SELECT value::text, order_id, payment_id, refund_id FROM giftcard_transaction WHERE giftcard_id = $1
        ORDER BY id`,
      [id],
    );
  const payments = (
    code: string,
  ): Promise<
    { local_id: number; state: string; amount: string; provider: string; info: Record<string, unknown> }[]
  > =>
    t.db.query(
      `SELECT y.local_id, y.state, y.amount::text, y.provider, y.info FROM order_payment y
         JOIN orders o ON o.id = y.order_id WHERE o.code = $1 ORDER BY y.local_id`,
      [code],
    );
  const statusOf = async (code: string): Promise<string> =>
    (await t.db.query<{ status: string }[]>('SELECT status FROM orders WHERE code = $1', [code]))[0].status;
  const pay = (code: string, info: object, amount = '100.00', state = 'confirmed', tok = token) =>
    post(`${E}/orders/${code}/payments/`, { provider: 'giftcard', state, amount, info }, tok);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: token2 } = await bootstrapOrganizer(t, 'org2'));
    ({ token: token3 } = await bootstrapOrganizer(t, 'org3'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    const it = await post(`${E}/items/`, { name: 'Ticket', default_price: '100.00' });
    item = it.body.id as number;
    expect((await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [item] })).status).toBe(201);
    // org accepts the cards of org3 (not those of org2).
    await t.db.query(
      `INSERT INTO giftcard_acceptance (issuer_id, acceptor_id, active, reusable_media)
       SELECT i.id, a.id, true, false FROM organizer i, organizer a WHERE i.slug = 'org3' AND a.slug = 'org'`,
    );
  });
  afterAll(() => t.close());

  describe('payments', () => {
    it('a confirmed gift card payment takes the amount once and pays the order; its refund puts value back once', async () => {
      const gc = await card('150.00');
      const code = await placePaymentOrder(t, { item });
      const res = await pay(code, { gift_card: gc.id });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        local_id: 1,
        state: 'confirmed',
        amount: '100.00',
        provider: 'giftcard',
      });
      expect(await statusOf(code)).toBe('p');
      expect(await valueOf(gc.id)).toBe('50.00');
      const [row] = await payments(code);
      const txs = await txRows(gc.id);
      expect(txs.map((x) => x.value)).toEqual(['150.00', '-100.00']);
      expect(txs[1].payment_id).not.toBeNull();
      expect(row.info).toEqual({
        gift_card: gc.id,
        gift_card_secret: gc.secret,
        transaction_id: expect.any(Number),
      });
      expect((await orderLog(t, code)).map((l) => l.action)).toEqual([
        'pretix.event.order.payment.confirmed',
        'pretix.event.order.paid',
        'pretix.event.order.payment.started',
      ]);
      const list = await get(`${O}/giftcards/${gc.id}/transactions/?ordering=id`);
      expect(list.body.results.map((x: Record<string, unknown>) => [x.value, x.event, x.order])).toEqual([
        ['150.00', null, null],
        ['-100.00', 'sample', code],
      ]);
      const logs = await t.db.query<{ action_type: string }[]>(
        "SELECT action_type FROM log_entry WHERE content_type = 'giftcard' AND object_id = $1 ORDER BY id",
        [gc.id],
      );
      expect(logs.map((l) => l.action_type)).toContain('pretix.giftcards.transaction.payment');

      const refund = await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '30.00' });
      expect(refund.status).toBe(200);
      expect(refund.body).toMatchObject({
        local_id: 1,
        state: 'done',
        amount: '30.00',
        provider: 'giftcard',
        payment: 1,
      });
      expect(await valueOf(gc.id)).toBe('80.00');
      const after = await txRows(gc.id);
      expect(after.map((x) => x.value)).toEqual(['150.00', '-100.00', '30.00']);
      expect(after[2].refund_id).not.toBeNull();
      expect(await statusOf(code)).toBe('n');
      // The rest of the payment: the payment becomes refunded, value goes back once more.
      expect((await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '70.00' })).body.amount).toBe(
        '70.00',
      );
      expect(await valueOf(gc.id)).toBe('150.00');
      expect((await payments(code))[0].state).toBe('refunded');
    });

    it('finds the card by its secret', async () => {
      const gc = await card('100.00');
      const code = await placePaymentOrder(t, { item, prices: ['40.00'] });
      const res = await pay(code, { gift_card_secret: gc.secret }, '40.00');
      expect(res.status).toBe(201);
      expect(await valueOf(gc.id)).toBe('60.00');
    });

    it('insufficient value: 400 with pretix message, nothing written', async () => {
      const gc = await card('20.00');
      const code = await placePaymentOrder(t, { item });
      const res = await pay(code, { gift_card: gc.id });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: MSG.usedMeanwhile });
      expect(await payments(code)).toEqual([]);
      expect(await valueOf(gc.id)).toBe('20.00');
      expect(await txRows(gc.id)).toHaveLength(1);
      expect(await orderLog(t, code)).toEqual([]);
      const empty = await card('0.00');
      expect((await pay(code, { gift_card: empty.id })).body).toEqual({ detail: MSG.empty });
    });

    it('a created gift card payment takes the value on confirm/, and only then', async () => {
      const gc = await card('120.00');
      const code = await placePaymentOrder(t, { item });
      expect((await pay(code, { gift_card: gc.id }, '100.00', 'created')).status).toBe(201);
      expect(await valueOf(gc.id)).toBe('120.00');
      const res = await post(`${E}/orders/${code}/payments/1/confirm/`, {});
      expect(res.status).toBe(200);
      expect(res.body.state).toBe('confirmed');
      expect(await valueOf(gc.id)).toBe('20.00');
      expect(await statusOf(code)).toBe('p');

      const code2 = await placePaymentOrder(t, { item });
      expect((await pay(code2, { gift_card: gc.id }, '100.00', 'pending')).status).toBe(201);
      const refused = await post(`${E}/orders/${code2}/payments/1/confirm/`, {});
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: MSG.usedMeanwhile });
      expect((await payments(code2))[0].state).toBe('pending');
      expect(await valueOf(gc.id)).toBe('20.00');
    });

    it('refuses cards of organizers it does not accept, and takes those of accepted issuers', async () => {
      const code = await placePaymentOrder(t, { item, prices: ['10.00'] });
      const foreign = await card('50.00', {}, 'org2', token2);
      let res = await pay(code, { gift_card: foreign.id }, '10.00');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: MSG.notAccepted });
      res = await pay(code, { gift_card_secret: foreign.secret }, '10.00');
      expect(res.body).toEqual({ detail: MSG.unknown });
      expect(await valueOf(foreign.id)).toBe('50.00');
      expect(await payments(code)).toEqual([]);

      const accepted = await card('50.00', {}, 'org3', token3);
      res = await pay(code, { gift_card_secret: accepted.secret }, '10.00');
      expect(res.status).toBe(201);
      expect(await valueOf(accepted.id)).toBe('40.00');
      const acceptor = await t.db.query<{ slug: string }[]>(
        `SELECT o.slug FROM giftcard_transaction x JOIN organizer o ON o.id = x.acceptor_id
          WHERE x.giftcard_id = $1 ORDER BY x.id DESC LIMIT 1`,
        [accepted.id],
      );
      expect(acceptor[0].slug).toBe('org');
      // The issuer sees which event and order its card paid.
      const seen = await get(
        `/api/v1/organizers/org3/giftcards/${accepted.id}/transactions/?ordering=id`,
        token3,
      );
      expect(seen.body.results[1]).toMatchObject({
        value: '-10.00',
        event: 'sample',
        order: code,
        acceptor: 'org',
      });
    });

    it('refuses another currency, an expired card, a test card for a live order, and no card at all', async () => {
      const code = await placePaymentOrder(t, { item, prices: ['10.00'] });
      const usd = await card('50.00', { currency: 'USD' });
      expect((await pay(code, { gift_card: usd.id }, '10.00')).body).toEqual({ detail: MSG.currency });
      const expired = await card('50.00', { expires: '2020-01-01T00:00:00Z' });
      expect((await pay(code, { gift_card: expired.id }, '10.00')).body).toEqual({ detail: MSG.expired });
      const test = await card('50.00', { testmode: true });
      expect((await pay(code, { gift_card: test.id }, '10.00')).body).toEqual({ detail: MSG.testmodeOnly });
      const none = await pay(code, {}, '10.00');
      expect(none.status).toBe(400);
      expect(Object.keys(none.body as object)).toEqual(['info']);
      expect(await payments(code)).toEqual([]);
    });

    it('10 parallel payments on one card never overdraw it', async () => {
      const gc = await card('100.00');
      const codes = await Promise.all(
        Array.from({ length: 10 }, () => placePaymentOrder(t, { item, prices: ['30.00'] })),
      );
      const answers = await Promise.all(codes.map((code) => pay(code, { gift_card: gc.id }, '30.00')));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 400, 400, 400, 400, 400, 400, 400]);
      for (const r of answers.filter((x) => x.status === 400))
        expect(r.body).toEqual({ detail: MSG.usedMeanwhile });
      expect(await valueOf(gc.id)).toBe('10.00');
      const txs = await txRows(gc.id);
      expect(txs.map((x) => x.value)).toEqual(['100.00', '-30.00', '-30.00', '-30.00']);
      const rows = await t.db.query<{ n: string }[]>(
        `SELECT count(*)::text AS n FROM order_payment y JOIN orders o ON o.id = y.order_id
          WHERE o.code = ANY($1) AND y.provider = 'giftcard'`,
        [codes],
      );
      expect(rows[0].n).toBe('3');
    });

    it('needs event.orders:write', async () => {
      const gc = await card('100.00');
      const code = await placePaymentOrder(t, { item });
      const res = await pay(code, { gift_card: gc.id }, '100.00', 'confirmed', reader);
      expect(res.status).toBe(403);
      expect(await valueOf(gc.id)).toBe('100.00');
      expect(await payments(code)).toEqual([]);
    });
  });

  describe('refunds', () => {
    const refund = (code: string, body: object) =>
      post(`${E}/orders/${code}/refunds/`, {
        state: 'created',
        source: 'admin',
        provider: 'giftcard',
        ...body,
      });

    it('puts the amount on the card named in info, done at once', async () => {
      const gc = await card('5.00');
      const code = await placePaymentOrder(t, {
        item,
        status: 'p',
        payments: [{ state: 'confirmed', amount: '100.00' }],
      });
      const res = await refund(code, { amount: '25.00', info: { gift_card: gc.id }, comment: 'goodwill' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ local_id: 1, state: 'done', amount: '25.00', provider: 'giftcard' });
      expect(res.body.execution_date).not.toBeNull();
      expect(await valueOf(gc.id)).toBe('30.00');
      const txs = await txRows(gc.id);
      expect(txs).toHaveLength(2);
      expect(txs[1]).toMatchObject({ value: '25.00', refund_id: expect.any(Number) });
      expect((await orderLog(t, code)).map((l) => l.action)).toEqual([
        'pretix.event.order.refund.created',
        'pretix.event.order.refund.done',
      ]);
    });

    it('without a card: the card of its gift card payment, else a new card of the organizer', async () => {
      const gc = await card('100.00');
      const code = await placePaymentOrder(t, { item });
      expect((await pay(code, { gift_card: gc.id })).status).toBe(201);
      expect(await valueOf(gc.id)).toBe('0.00');
      let res = await refund(code, { amount: '40.00', payment: 1 });
      expect(res.status).toBe(201);
      expect(await valueOf(gc.id)).toBe('40.00');

      const plain = await placePaymentOrder(t, {
        item,
        status: 'p',
        payments: [{ state: 'confirmed', amount: '100.00' }],
      });
      res = await refund(plain, { amount: '15.00', payment: 1 });
      expect(res.status).toBe(201);
      const info = (
        await t.db.query<{ info: { gift_card: number; gift_card_secret: string } }[]>(
          'SELECT r.info FROM order_refund r JOIN orders o ON o.id = r.order_id WHERE o.code = $1',
          [plain],
        )
      )[0].info;
      const issued = await get(`${O}/giftcards/${info.gift_card}/`);
      expect(issued.body).toMatchObject({
        value: '15.00',
        currency: 'EUR',
        secret: info.gift_card_secret,
        issuer: 'org',
      });
    });

    it("puts value on an accepted issuer's card only back from that card's payment", async () => {
      const accepted = await card('50.00', {}, 'org3', token3);
      const code = await placePaymentOrder(t, { item, prices: ['20.00'] });
      expect((await pay(code, { gift_card: accepted.id }, '20.00')).status).toBe(201);
      const other = await placePaymentOrder(t, {
        item,
        status: 'p',
        payments: [{ state: 'confirmed', amount: '100.00' }],
      });
      const refused = await refund(other, { amount: '20.00', info: { gift_card: accepted.id } });
      expect(refused.status).toBe(400);
      expect(await valueOf(accepted.id)).toBe('30.00');
      const tooMuch = await refund(code, { amount: '25.00', payment: 1 });
      expect(tooMuch.status).toBe(400);
      const back = await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '20.00' });
      expect(back.status).toBe(200);
      expect(await valueOf(accepted.id)).toBe('50.00');
    });
  });

  describe('use_gift_cards on order creation', () => {
    const create = (body: object) =>
      post(`${E}/orders/`, { positions: [{ item }], email: 'a@example.org', ...body });

    it('pays the order with the cards in order until covered', async () => {
      const a = await card('60.00');
      const b = await card('100.00');
      const res = await create({ use_gift_cards: [a.secret, b.secret] });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('p');
      const rows = await payments(res.body.code as string);
      expect(rows.map((p) => [p.local_id, p.state, p.amount, p.provider])).toEqual([
        [1, 'confirmed', '60.00', 'giftcard'],
        [2, 'confirmed', '40.00', 'giftcard'],
      ]);
      expect(await valueOf(a.id)).toBe('0.00');
      expect(await valueOf(b.id)).toBe('60.00');
      expect((await txRows(b.id))[1]).toMatchObject({ value: '-40.00', order_id: expect.any(Number) });
    });

    it('covers part: the order stays pending; an unknown card gives a failed payment', async () => {
      const c = await card('30.00');
      const res = await create({ use_gift_cards: ['NOPE-NOPE', c.secret] });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('n');
      const rows = await payments(res.body.code as string);
      expect(rows.map((p) => [p.state, p.amount])).toEqual([
        ['failed', '100.00'],
        ['confirmed', '30.00'],
      ]);
      expect(rows[0].info).toEqual({ gift_card_secret: 'NOPE-NOPE', error: MSG.unknown });
      expect(await valueOf(c.id)).toBe('0.00');
    });

    it("refuses with pretix's messages and writes nothing", async () => {
      const c = await card('30.00');
      const count = async () =>
        (await t.db.query<{ n: string }[]>('SELECT count(*)::text AS n FROM orders'))[0].n;
      const before = await count();
      const cases: [object, string][] = [
        [
          { payment_provider: 'manual' },
          'The attribute use_gift_cards is not compatible with payment_provider or payment_info',
        ],
        [
          { status: 'p' },
          'The attribute use_gift_cards is only supported for orders that are created as pending',
        ],
        [
          { use_gift_cards: [c.secret, c.secret] },
          'Multiple copies of the same gift card secret are not allowed',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await create({ use_gift_cards: [c.secret], ...body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ use_gift_cards: [message] });
      }
      expect(await count()).toBe(before);
      expect(await valueOf(c.id)).toBe('30.00');
    });
  });
});
