import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { nameFromParts } from '../src/orders/presentation/order.presenter';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The exact filters of issue 27 §6 (README "Exact filters") on `E/orders/`, `O/orders/`, `E/orderpositions/` and
 * `O/orderpositions/`: `email`, `attendee_email`, `attendee_name` (case-insensitive), `secret`, `customer`,
 * `item__in`, `status__in` (`order__status__in` on positions), `datetime_since`/`datetime_until`; each alone and
 * combined, bad values answer 400 naming the parameter, permissions unchanged; and each one's page statement is
 * planned on an index, with no sequential scan of `orders` or `order_position`, over an event of 20,000 orders.
 */
describe('exact filters on order and position lists', () => {
  let t: TestApp;
  let token: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/one`;
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies, checked where used
  const post = async (path: string, body: object): Promise<any> => {
    const res = await t.http().post(path).set('Authorization', auth(token)).send(body);
    if (![200, 201].includes(res.status))
      throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const codes = async (path: string, tok = token): Promise<string[]> => {
    const res = await get(path, tok);
    expect(res.status).toBe(200);
    return (res.body.results as { code: string }[]).map((o) => o.code).sort();
  };
  const positionIds = async (path: string, tok = token): Promise<number[]> => {
    const res = await get(path, tok);
    expect(res.status).toBe(200);
    return (res.body.results as { id: number }[]).map((p) => p.id).sort((a, b) => a - b);
  };
  const sorted = (xs: string[]) => [...xs].sort();
  const asc = (xs: number[]) => [...xs].sort((a, b) => a - b);

  /** Order codes and position ids of the fixture, by name. */
  const order: Record<string, string> = {};
  const pos: Record<string, number> = {};
  const item: Record<string, number> = {};
  const secret: Record<string, string> = {};
  let customer: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    for (const slug of ['one', 'two']) await createEvent(t, token, 'org', { slug });
    for (const [name, slug] of [
      ['a', 'one'],
      ['b', 'one'],
      ['filler', 'one'],
      ['c', 'two'],
    ]) {
      const path = `${ORG}/events/${slug}`;
      item[name] = (await post(`${path}/items/`, { name: `Ticket ${name}`, default_price: '10.00' }))
        .id as number;
      await post(`${path}/quotas/`, { name: `Q ${name}`, size: null, items: [item[name]] });
    }
    customer = (await post(`${ORG}/customers/`, { email: 'cust@example.org' })).identifier as string;

    // one/o1: paid, customer, Ann Lee (name parts) with an add-on without a name, placed 2026-01-01.
    const o1 = await post(`${E}/orders/`, {
      email: 'Buyer@Example.org',
      status: 'p',
      customer,
      positions: [
        {
          item: item.a,
          attendee_name_parts: { given_name: 'Ann', family_name: 'Lee' },
          attendee_email: 'Ann@Example.org',
        },
        { item: item.b },
      ],
    });
    // one/o2: pending, Bob Ross (single-string name); one/o3: canceled.
    const o2 = await post(`${E}/orders/`, {
      email: 'other@example.org',
      positions: [{ item: item.b, attendee_name: 'Bob Ross', attendee_email: 'bob@example.org' }],
    });
    const o3 = await post(`${E}/orders/`, {
      email: 'third@example.org',
      positions: [{ item: item.a, attendee_name: 'Cy' }],
    });
    await post(`${E}/orders/${o3.code as string}/mark_canceled/`, {});
    // two/o4: the same buyer and attendee name as o1 in another event.
    const o4 = await post(`${ORG}/events/two/orders/`, {
      email: 'buyer@example.org',
      positions: [{ item: item.c, attendee_name_parts: { given_name: 'ANN', family_name: 'LEE' } }],
    });
    for (const [name, o] of Object.entries({ o1, o2, o3, o4 })) {
      order[name] = o.code as string;
      const ps = o.positions as { id: number; secret: string }[];
      ps.forEach((p, i) => {
        pos[`${name}.${i + 1}`] = p.id;
        secret[`${name}.${i + 1}`] = p.secret;
      });
    }
    // The second position of o1 is an add-on of the first (a fixture: no add-on rules needed for the filter).
    await t.db.query('UPDATE order_position SET addon_to_id = $1 WHERE id = $2', [pos['o1.1'], pos['o1.2']]);
    await t.db.query(
      `UPDATE orders SET datetime = v.at::timestamptz FROM (VALUES ($1, '2026-01-01T10:00:00Z'),
        ($2, '2026-02-01T10:00:00Z'), ($3, '2026-03-01T10:00:00Z'), ($4, '2026-02-01T10:00:00Z')) v(code, at)
        WHERE orders.code = v.code`,
      [order.o1, order.o2, order.o3, order.o4],
    );
  });
  afterAll(() => t.close());

  describe('orders', () => {
    it('email, attendee_email and attendee_name match exactly, whatever the case', async () => {
      expect(await codes(`${E}/orders/?email=BUYER@example.ORG`)).toEqual([order.o1]);
      expect(await codes(`${ORG}/orders/?email=buyer@example.org`)).toEqual(sorted([order.o1, order.o4]));
      expect(await codes(`${E}/orders/?email=buyer@example`)).toEqual([]);
      expect(await codes(`${E}/orders/?attendee_email=ann@EXAMPLE.org`)).toEqual([order.o1]);
      expect(await codes(`${E}/orders/?attendee_email=ann`)).toEqual([]);
      expect(await codes(`${E}/orders/?attendee_name=ann%20lee`)).toEqual([order.o1]);
      expect(await codes(`${ORG}/orders/?attendee_name=Ann%20Lee`)).toEqual(sorted([order.o1, order.o4]));
      expect(await codes(`${E}/orders/?attendee_name=BOB%20ROSS`)).toEqual([order.o2]);
      expect(await codes(`${E}/orders/?attendee_name=Ann`)).toEqual([]);
    });

    it('secret (a ticket secret, exact), customer and item__in keep the orders having such a position', async () => {
      expect(await codes(`${E}/orders/?secret=${secret['o2.1']}`)).toEqual([order.o2]);
      expect(await codes(`${ORG}/orders/?secret=${secret['o4.1']}`)).toEqual([order.o4]);
      expect(await codes(`${E}/orders/?secret=${secret['o2.1'].toUpperCase()}X`)).toEqual([]);
      expect(await codes(`${E}/orders/?customer=${customer}`)).toEqual([order.o1]);
      expect(await codes(`${ORG}/orders/?customer=${customer}`)).toEqual([order.o1]);
      expect(await codes(`${E}/orders/?customer=NOPE`)).toEqual([]);
      // o3's position is canceled with its order: it still counts (pretix `item` on orders).
      expect(await codes(`${E}/orders/?item__in=${item.a}`)).toEqual(sorted([order.o1, order.o3]));
      expect(await codes(`${E}/orders/?item__in=${item.a},${item.b}`)).toEqual(
        sorted([order.o1, order.o2, order.o3]),
      );
      expect(await codes(`${ORG}/orders/?item__in=${item.c}`)).toEqual([order.o4]);
    });

    it('status__in takes pretix status codes; datetime_since and datetime_until are inclusive', async () => {
      expect(await codes(`${E}/orders/?status__in=n,c`)).toEqual(sorted([order.o2, order.o3]));
      expect(await codes(`${E}/orders/?status__in=P`)).toEqual([order.o1]);
      expect(await codes(`${ORG}/orders/?status__in=n`)).toEqual(sorted([order.o2, order.o4]));
      expect(await codes(`${E}/orders/?datetime_since=2026-02-01T10:00:00Z`)).toEqual(
        sorted([order.o2, order.o3]),
      );
      expect(await codes(`${E}/orders/?datetime_until=2026-02-01T10:00:00Z`)).toEqual(
        sorted([order.o1, order.o2]),
      );
      expect(
        await codes(`${ORG}/orders/?datetime_since=2026-01-15T00:00:00Z&datetime_until=2026-02-15T00:00:00Z`),
      ).toEqual(sorted([order.o2, order.o4]));
    });

    it('combines filters (all must hold) and with the older ones', async () => {
      expect(await codes(`${ORG}/orders/?email=buyer@example.org&status__in=p`)).toEqual([order.o1]);
      expect(
        await codes(`${ORG}/orders/?attendee_name=ann%20lee&datetime_since=2026-01-15T00:00:00Z`),
      ).toEqual([order.o4]);
      expect(await codes(`${E}/orders/?item__in=${item.a}&status__in=n,p&customer=${customer}`)).toEqual([
        order.o1,
      ]);
      expect(await codes(`${E}/orders/?status=c&status__in=n,p`)).toEqual([]);
      expect(await codes(`${E}/orders/?item__in=${item.b}&created_before=2026-01-15T00:00:00Z`)).toEqual([
        order.o1,
      ]);
    });
  });

  describe('order positions', () => {
    it('email is the order’s; attendee_name also keeps the add-ons of the named position (pretix)', async () => {
      expect(await positionIds(`${E}/orderpositions/?email=BUYER@example.org`)).toEqual(
        asc([pos['o1.1'], pos['o1.2']]),
      );
      expect(await positionIds(`${ORG}/orderpositions/?email=buyer@example.org`)).toEqual(
        asc([pos['o1.1'], pos['o1.2'], pos['o4.1']]),
      );
      expect(await positionIds(`${E}/orderpositions/?attendee_name=ANN%20lee`)).toEqual(
        asc([pos['o1.1'], pos['o1.2']]),
      );
      expect(await positionIds(`${ORG}/orderpositions/?attendee_name=ann%20lee`)).toEqual(
        asc([pos['o1.1'], pos['o1.2'], pos['o4.1']]),
      );
      expect(await positionIds(`${E}/orderpositions/?attendee_name=bob%20ross`)).toEqual([pos['o2.1']]);
      expect(await positionIds(`${E}/orderpositions/?attendee_email=BOB@example.org`)).toEqual([pos['o2.1']]);
      expect(await positionIds(`${ORG}/orderpositions/?secret=${secret['o4.1']}`)).toEqual([pos['o4.1']]);
    });

    it('customer, item__in, order__status__in / status__in and the datetime range', async () => {
      expect(await positionIds(`${E}/orderpositions/?customer=${customer}`)).toEqual(
        asc([pos['o1.1'], pos['o1.2']]),
      );
      expect(await positionIds(`${E}/orderpositions/?item__in=${item.b}`)).toEqual(
        asc([pos['o1.2'], pos['o2.1']]),
      );
      expect(await positionIds(`${ORG}/orderpositions/?item__in=${item.b},${item.c}`)).toEqual(
        asc([pos['o1.2'], pos['o2.1'], pos['o4.1']]),
      );
      expect(await positionIds(`${ORG}/orderpositions/?order__status__in=n`)).toEqual(
        asc([pos['o2.1'], pos['o4.1']]),
      );
      expect(await positionIds(`${E}/orderpositions/?status__in=p,N`)).toEqual(
        asc([pos['o1.1'], pos['o1.2'], pos['o2.1']]),
      );
      // Canceled positions only with include_canceled_positions, as without the filter.
      expect(await positionIds(`${E}/orderpositions/?status__in=c`)).toEqual([]);
      expect(await positionIds(`${E}/orderpositions/?status__in=c&include_canceled_positions=true`)).toEqual([
        pos['o3.1'],
      ]);
      expect(await positionIds(`${E}/orderpositions/?order__status__in=n,p&status__in=p,c`)).toEqual(
        asc([pos['o1.1'], pos['o1.2']]),
      );
      expect(await positionIds(`${ORG}/orderpositions/?datetime_since=2026-02-01T10:00:00Z`)).toEqual(
        asc([pos['o2.1'], pos['o4.1']]),
      );
      expect(
        await positionIds(`${E}/orderpositions/?datetime_until=2026-01-01T10:00:00Z&item__in=${item.a}`),
      ).toEqual([pos['o1.1']]);
    });
  });

  it('the indexed name (SQL attendee_name_of) is the attendee_name the API shows (nameFromParts)', async () => {
    const samples: Record<string, string>[] = [
      {},
      { _legacy: 'Bob Ross' },
      { _legacy: '', given_name: 'Ann' },
      { _scheme: 'given_family', family_name: 'Lee', given_name: 'Ann' },
      {
        calling_name: 'Al',
        title: 'Dr',
        middle_name: 'M',
        salutation: 'Mr',
        given_name: 'Alan',
        family_name: 'T',
      },
      { zz: 'Z', full_name: 'Peter P', a: 'A' },
      { given_name: '', family_name: '' },
      { given_name: '  Ann ', family_name: 'Lee\t' },
    ];
    for (const parts of samples) {
      const [{ name }] = await t.db.query<{ name: string | null }[]>(
        'SELECT attendee_name_of($1::jsonb) AS name',
        [JSON.stringify(parts)],
      );
      // Read back as stored (jsonb orders keys), as the API reads it.
      const [{ stored }] = await t.db.query<{ stored: Record<string, string> }[]>(
        'SELECT $1::jsonb AS stored',
        [JSON.stringify(parts)],
      );
      expect({ parts, name }).toEqual({ parts, name: nameFromParts(stored) });
    }
  });

  it('bad values answer 400 naming the parameter', async () => {
    const long = 'x'.repeat(201);
    const cases: [string, string][] = [
      ['status__in=n,x', 'status__in'],
      ['item__in=1,abc', 'item__in'],
      ['datetime_since=yesterday', 'datetime_since'],
      ['datetime_until=2026-13-01T00:00:00Z', 'datetime_until'],
      [`attendee_name=${long}`, 'attendee_name'],
      [`attendee_email=${long}`, 'attendee_email'],
      [`secret=${long}`, 'secret'],
      [`customer=${long}`, 'customer'],
    ];
    for (const list of [`${E}/orders/`, `${ORG}/orders/`, `${E}/orderpositions/`, `${ORG}/orderpositions/`]) {
      for (const [query, field] of cases) {
        const res = await get(`${list}?${query}`);
        expect([list, query, res.status, Object.keys(res.body as object)]).toEqual([
          list,
          query,
          400,
          [field],
        ]);
      }
    }
    const res = await get(`${E}/orderpositions/?order__status__in=z`);
    expect([res.status, res.body]).toEqual([
      400,
      { order__status__in: ['Select a valid choice. z is not one of the available choices.'] },
    ]);
    expect((await get(`${E}/orderpositions/?email=${long}`)).status).toBe(400);
  });

  it('permissions are unchanged: a filter never widens what a credential reads', async () => {
    const two = await teamToken(t, 'org', { limitEvents: ['two'], eventPermissions: ['event.orders:read'] });
    expect(await codes(`${ORG}/orders/?email=buyer@example.org`, two)).toEqual([order.o4]);
    expect(await positionIds(`${ORG}/orderpositions/?attendee_name=ann%20lee`, two)).toEqual([pos['o4.1']]);
    expect((await get(`${E}/orders/?email=buyer@example.org`, two)).status).toBe(403);
    const noOrders = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.vouchers:read'],
    });
    expect((await get(`${E}/orderpositions/?customer=${customer}`, noOrders)).status).toBe(403);
    expect(await codes(`${ORG}/orders/?customer=${customer}`, noOrders)).toEqual([]);
    const other = await bootstrapOrganizer(t, 'org2');
    expect((await get(`${ORG}/orders/?customer=${customer}`, other.token)).status).toBe(403);
  });

  describe('query plans over 20,000 orders', () => {
    type PlanNode = {
      'Node Type': string;
      'Relation Name'?: string;
      'Index Name'?: string;
      Plans?: PlanNode[];
    };
    const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

    /** The page statement (rows with their count) the list ran for `path`, with its parameters. */
    async function pageStatement(path: string): Promise<{ text: string; values: unknown[] }> {
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        expect((await get(path)).status).toBe(200);
        // A prepared statement arrives as `{ name, text }` with its values as the second argument.
        const calls = spy.mock.calls.map(([q, params]) => ({
          text: typeof q === 'object' && q !== null && 'text' in q ? (q as { text: string }).text : String(q),
          values: (params as unknown[] | undefined) ?? [],
        }));
        const page = calls.filter((c) => c.text.includes('COUNT(*) OVER ()'));
        expect(page).toHaveLength(1);
        return page[0];
      } finally {
        spy.mockRestore();
      }
    }

    beforeAll(async () => {
      // 20,000 paid orders of the filler product in event one, placed in 2020, each with one position; then ANALYZE.
      const [{ id: eventId, organizer_id: orgId }] = await t.db.query<{ id: number; organizer_id: number }[]>(
        `SELECT id, organizer_id FROM event WHERE slug = 'one'`,
      );
      await t.db.query(
        `INSERT INTO orders (event_id, organizer_id, code, status, secret, email, datetime, expires, total)
         SELECT $1, $2, 'F' || lpad(g::text, 7, '0'), 'p', md5(g::text), 'filler' || g || '@bulk.example',
                '2020-01-01T00:00:00Z'::timestamptz + g * interval '1 minute', now(), 10
           FROM generate_series(1, 20000) g`,
        [eventId, orgId],
      );
      await t.db.query(
        `INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id,
                                     attendee_email, attendee_name_parts)
         SELECT o.id, o.event_id, 1, $2, 10, 'FS' || o.code, substr(md5(o.code), 1, 10),
                'att' || o.code || '@bulk.example', jsonb_build_object('given_name', 'G' || o.code, 'family_name', 'F')
           FROM orders o WHERE o.event_id = $1 AND o.code LIKE 'F%'`,
        [eventId, item.filler],
      );
      await t.db.query('ANALYZE orders');
      await t.db.query('ANALYZE order_position');
    });

    const cases = (): [string, RegExp][] => [
      ['email=buyer@example.org', /ix_orders_email_ci/],
      ['attendee_email=ann@example.org', /ix_order_position_attendee_email_ci/],
      ['attendee_name=ann%20lee', /ix_order_position_attendee_name_ci/],
      [`secret=${secret['o2.1']}`, /ix_order_position_secret|uq_order_position_event_secret/],
      [`customer=${customer}`, /ix_orders_organizer_customer/],
      // The generated index on `order_position.item_id`, or `(event_id, item_id, variation_id)`.
      [`item__in=${item.a},${item.b}`, /^IDX_7f530988540c71dfe7c379de94$|^ix_order_position_event_product$/],
      ['status__in=n,c', /status_datetime/],
      ['datetime_since=2026-01-01T00:00:00Z&datetime_until=2026-12-31T00:00:00Z', /_datetime$/],
    ];

    it.each([['E/orders/'], ['O/orders/'], ['E/orderpositions/'], ['O/orderpositions/']])(
      '%s: every filter is planned on its index, never a sequential scan of orders or positions',
      async (list) => {
        const base = list.replace('E/', `${E}/`).replace('O/', `${ORG}/`);
        for (const [query, index] of cases()) {
          const { text, values } = await pageStatement(`${base}?${query}`);
          const [{ 'QUERY PLAN': plan }] = await t.db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
            `EXPLAIN (FORMAT JSON) ${text}`,
            values,
          );
          const all = nodes(plan[0].Plan);
          const seqScans = all
            .filter((n) => n['Node Type'] === 'Seq Scan')
            .map((n) => n['Relation Name'])
            .filter((r) => r === 'orders' || r === 'order_position');
          const indexes = all.map((n) => n['Index Name']).filter((x): x is string => x !== undefined);
          expect({ list, query, seqScans }).toEqual({ list, query, seqScans: [] });
          expect({ list, query, used: indexes.some((i) => index.test(i)), indexes }).toMatchObject({
            list,
            query,
            used: true,
          });
        }
      },
    );
  });
});
