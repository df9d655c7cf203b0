import { LIMITS } from '../src/config/limits';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

const tooMany = (n: number) => `Ensure this field has no more than ${n} elements.`;

/**
 * Big inputs: every list a client sends is capped at a documented limit (`LIMITS`, README "Limits"); at the cap
 * the request works and writes everything (the order's positions in several INSERT statements, below
 * PostgreSQL's 65,535 bind parameters each), one above it answers 400 naming the field and writes nothing.
 */
describe('big inputs', () => {
  let t: TestApp;
  let token: string;
  let item: number;
  let question: number;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(`${E}/${path}`)
      .set('Authorization', auth(token))
      .send(body as object);
  const count = async (sql: string): Promise<number> => (await t.db.query<{ n: number }[]>(sql))[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    item = (await post('items/', { name: { en: 'Ticket' }, default_price: '10.00' })).body.id;
    const quota = await post('quotas/', { name: 'All', size: null, items: [item] });
    expect(quota.status).toBe(201);
    question = (await post('questions/', { question: 'Name?', type: 'S', items: [item] })).body.id;
  });
  afterAll(() => t.close());

  describe('positions per order', () => {
    it(`${LIMITS.orderPositions} positions (each with an answer) are written: 201, every row present`, async () => {
      const positions = Array.from({ length: LIMITS.orderPositions }, (_, i) => ({
        item,
        answers: [{ question, answer: `P${i}` }],
      }));
      const res = await post('orders/', { email: 'big@example.org', positions });
      expect(res.status).toBe(201);
      expect(res.body.positions).toHaveLength(LIMITS.orderPositions);
      const rows: { positions: number; answers: number; last: number }[] = await t.db.query(
        `SELECT count(DISTINCT p.id)::int AS positions, count(a.id)::int AS answers, max(p.positionid) AS last
           FROM orders o JOIN order_position p ON p.order_id = o.id
           LEFT JOIN question_answer a ON a.order_position_id = p.id WHERE o.code = $1`,
        [res.body.code],
      );
      expect(rows).toEqual([
        { positions: LIMITS.orderPositions, answers: LIMITS.orderPositions, last: LIMITS.orderPositions },
      ]);
    }, 60_000);

    it(`${LIMITS.orderPositions + 1} positions: 400 naming positions, nothing written`, async () => {
      const orders = await count('SELECT count(*)::int AS n FROM orders');
      const positions = Array.from({ length: LIMITS.orderPositions + 1 }, () => ({ item }));
      const res = await post('orders/', { positions });
      expect(res.status).toBe(400);
      expect(res.body.positions).toContain(tooMany(LIMITS.orderPositions));
      expect(await count('SELECT count(*)::int AS n FROM orders')).toBe(orders);
    });

    it('answers per position, options per answer, fees and consume_carts are capped too', async () => {
      const orders = await count('SELECT count(*)::int AS n FROM orders');
      const answers = Array.from({ length: LIMITS.answersPerPosition + 1 }, () => ({
        question,
        answer: 'x',
      }));
      let res = await post('orders/', { positions: [{ item, answers }] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ positions: [{ answers: [tooMany(LIMITS.answersPerPosition)] }] });

      const options = Array.from({ length: LIMITS.optionsPerAnswer + 1 }, (_, i) => i + 1);
      res = await post('orders/', { positions: [{ item, answers: [{ question, options }] }] });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(tooMany(LIMITS.optionsPerAnswer));
      expect(res.body.positions[0].answers[0].options).toEqual([tooMany(LIMITS.optionsPerAnswer)]);

      const fees = Array.from({ length: LIMITS.orderFees + 1 }, () => ({ fee_type: 'other', value: '1.00' }));
      res = await post('orders/', { positions: [{ item }], fees });
      expect(res.status).toBe(400);
      expect(res.body.fees).toContain(tooMany(LIMITS.orderFees));

      const carts = Array.from({ length: LIMITS.consumeCarts + 1 }, (_, i) => `c${i}@api`);
      res = await post('orders/', { positions: [{ item }], consume_carts: carts });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ consume_carts: [tooMany(LIMITS.consumeCarts)] });
      expect(await count('SELECT count(*)::int AS n FROM orders')).toBe(orders);

      // At the caps (fees and carts; answers at the cap are above), the order is written.
      const atCap = await post('orders/', {
        positions: [{ item }],
        fees: fees.slice(1),
        consume_carts: carts.slice(1),
      });
      expect(atCap.status).toBe(201);
      expect(atCap.body.fees).toHaveLength(LIMITS.orderFees);
    });
  });

  describe('cart positions per bulk_create', () => {
    it(`${LIMITS.cartPositionsPerBulk} entries are created; one more: 400, nothing written`, async () => {
      const entry = { item, price: '10.00', cart_id: 'bulk@api' };
      const over = await post(
        'cartpositions/bulk_create/',
        Array(LIMITS.cartPositionsPerBulk + 1).fill(entry),
      );
      expect(over.status).toBe(400);
      expect(over.body).toEqual({ non_field_errors: [tooMany(LIMITS.cartPositionsPerBulk)] });
      expect(await count(`SELECT count(*)::int AS n FROM cart_position`)).toBe(0);

      const res = await post('cartpositions/bulk_create/', Array(LIMITS.cartPositionsPerBulk).fill(entry));
      expect(res.status).toBe(200);
      expect(res.body.results.every((r: { success: boolean }) => r.success)).toBe(true);
      expect(await count(`SELECT count(*)::int AS n FROM cart_position WHERE cart_id = 'bulk@api'`)).toBe(
        LIMITS.cartPositionsPerBulk,
      );
    }, 60_000);
  });

  describe('vouchers per batch_create', () => {
    it(`${LIMITS.vouchersPerBatch} vouchers are created; one more: 400, nothing written`, async () => {
      const over = await post(
        'vouchers/batch_create/',
        Array.from({ length: LIMITS.vouchersPerBatch + 1 }, () => ({ item })),
      );
      expect(over.status).toBe(400);
      expect(over.body).toEqual({ non_field_errors: [tooMany(LIMITS.vouchersPerBatch)] });
      expect(await count('SELECT count(*)::int AS n FROM voucher')).toBe(0);

      const res = await post(
        'vouchers/batch_create/',
        Array.from({ length: LIMITS.vouchersPerBatch }, () => ({ item })),
      );
      expect(res.status).toBe(201);
      expect(res.body).toHaveLength(LIMITS.vouchersPerBatch);
      expect(await count('SELECT count(*)::int AS n FROM voucher')).toBe(LIMITS.vouchersPerBatch);
    }, 60_000);
  });

  describe('values per multi-value query parameter', () => {
    it(`${LIMITS.filterValues} repeated values are read; one more: 400 naming the parameter`, async () => {
      const query = (n: number) => Array(n).fill('ordering=code').join('&');
      const ok = await t
        .http()
        .get(`${E}/orders/?${query(LIMITS.filterValues)}`)
        .set('Authorization', auth(token));
      expect(ok.status).toBe(200);
      const over = await t
        .http()
        .get(`${E}/orders/?${query(LIMITS.filterValues + 1)}`)
        .set('Authorization', auth(token));
      expect(over.status).toBe(400);
      expect(over.body).toEqual({ ordering: [tooMany(LIMITS.filterValues)] });
    });
  });

  describe('other lists in bodies', () => {
    const over = LIMITS.listEntries + 1;
    it(`id lists, string lists and inline lists above ${LIMITS.listEntries}: 400 naming the field, nothing written`, async () => {
      const quotas = await count('SELECT count(*)::int AS n FROM quota');
      let res = await post('quotas/', { name: 'Big', size: 1, items: Array(over).fill(item) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ items: [tooMany(LIMITS.listEntries)] });
      expect(await count('SELECT count(*)::int AS n FROM quota')).toBe(quotas);

      const items = await count('SELECT count(*)::int AS n FROM item');
      res = await post('items/', {
        name: { en: 'Many' },
        default_price: '1.00',
        variations: Array.from({ length: over }, (_, i) => ({ value: { en: `V${i}` } })),
      });
      expect(res.status).toBe(400);
      expect(res.body.variations).toContain(tooMany(LIMITS.listEntries));
      res = await post('items/', {
        name: { en: 'Many' },
        default_price: '1.00',
        sales_channels: Array(over).fill('web'),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ sales_channels: [tooMany(LIMITS.listEntries)] });
      expect(await count('SELECT count(*)::int AS n FROM item')).toBe(items);

      const questions = await count('SELECT count(*)::int AS n FROM question');
      res = await post('questions/', {
        question: 'Pick',
        type: 'C',
        items: [item],
        options: Array.from({ length: over }, (_, i) => ({ answer: { en: `O${i}` } })),
      });
      expect(res.status).toBe(400);
      expect(res.body.options).toContain(tooMany(LIMITS.listEntries));
      expect(await count('SELECT count(*)::int AS n FROM question')).toBe(questions);
    });

    it(`an item with ${LIMITS.listEntries} variations is created with all of them`, async () => {
      const res = await post('items/', {
        name: { en: 'Many' },
        default_price: '1.00',
        variations: Array.from({ length: LIMITS.listEntries }, (_, i) => ({ value: { en: `V${i}` } })),
      });
      expect(res.status).toBe(201);
      expect(
        await count(`SELECT count(*)::int AS n FROM item_variation WHERE item_id = ${Number(res.body.id)}`),
      ).toBe(LIMITS.listEntries);
    }, 60_000);
  });
});
