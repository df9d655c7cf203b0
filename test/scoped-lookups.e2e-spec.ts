import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Scoped look-ups (README "API conventions"): every id a request body names is resolved within the organizer/event
 * of the URL, so another organizer's id answers exactly like an id that does not exist (same status, same message
 * with the id in it): nothing tells a client that the row exists elsewhere.
 */
describe('ids from request bodies are resolved within the URL scope', () => {
  let t: TestApp;
  let token: string;
  let token2: string;
  const A = '/api/v1/organizers/org';
  const E = `${A}/events/sample`;
  const B = '/api/v1/organizers/org2';
  const E2 = `${B}/events/sample`;
  const UNKNOWN = 2000000000;

  /** Row ids of the other organizer (and of this one, for the parts that must exist). */
  const foreign: Record<string, number> = {};
  const own: Record<string, number> = {};
  /** Ticket secret of the first order position, per event path. */
  const secrets: Record<string, string> = {};

  async function created(path: string, body: unknown, tok: string): Promise<Record<string, unknown>> {
    const res = await t
      .http()
      .post(path)
      .set('Authorization', auth(tok))
      .send(body as object);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: token2 } = await bootstrapOrganizer(t, 'org2'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token2, 'org2', { slug: 'sample' });
    await createEvent(t, token2, 'org2', { slug: 'bonly' });

    for (const [base, tok, ids] of [
      [E, token, own],
      [E2, token2, foreign],
    ] as const) {
      const o = base.replace(/\/events\/sample$/, '');
      ids.category = (await created(`${base}/categories/`, { name: 'Cat' }, tok)).id as number;
      ids.taxRule = (await created(`${base}/taxrules/`, { name: 'VAT', rate: '19.00' }, tok)).id as number;
      ids.membershipType = (await created(`${o}/membershiptypes/`, { name: 'Pass' }, tok)).id as number;
      const item = await created(
        `${base}/items/`,
        { name: 'Shirt', default_price: '10.00', variations: [{ value: 'S' }, { value: 'M' }] },
        tok,
      );
      ids.item = item.id as number;
      ids.variation = (item.variations as { id: number }[])[0].id;
      ids.simpleItem = (await created(`${base}/items/`, { name: 'Ticket', default_price: '5.00' }, tok))
        .id as number;
      ids.quota = (
        await created(
          `${base}/quotas/`,
          { name: 'Q', size: 100, items: [ids.item, ids.simpleItem], variations: [ids.variation] },
          tok,
        )
      ).id as number;
      ids.voucher = (
        await created(`${base}/vouchers/`, { code: `VOUCHER${ids.item}`, item: ids.simpleItem }, tok)
      ).id as number;
      const question = await created(
        `${base}/questions/`,
        { question: 'Size?', type: 'C', items: [ids.simpleItem], options: [{ answer: 'L' }] },
        tok,
      );
      ids.question = question.id as number;
      ids.option = (question.options as { id: number }[])[0].id;
      ids.textQuestion = (
        await created(`${base}/questions/`, { question: 'Name?', type: 'S', items: [ids.simpleItem] }, tok)
      ).id as number;
      ids.giftcard = (await created(`${o}/giftcards/`, { currency: 'EUR', value: '10.00' }, tok))
        .id as number;
      const order = await created(
        `${base}/orders/`,
        { email: 'a@example.org', positions: [{ item: ids.simpleItem }] },
        tok,
      );
      ids.position = (order.positions as { id: number }[])[0].id;
      secrets[base] = (order.positions as { secret: string }[])[0].secret;
    }
  });
  afterAll(() => t.close());

  /** A case: its name, the path (a PATCH when it names an existing row: `PATCH …`), the body for an id. */
  type Case = [name: string, path: () => string, body: (x: number) => unknown];
  const item =
    (extra: (x: number) => object): ((x: number) => unknown) =>
    (x) => ({
      name: 'New',
      default_price: '1.00',
      ...extra(x),
    });
  const order = (position: (x: number) => object) => (x: number) => ({
    email: 'b@example.org',
    positions: [{ item: own.simpleItem, ...position(x) }],
  });
  const cases: Case[] = [
    ['item category', () => `${E}/items/`, item((x) => ({ category: x }))],
    ['item tax_rule', () => `${E}/items/`, item((x) => ({ tax_rule: x }))],
    ['item require_membership_types', () => `${E}/items/`, item((x) => ({ require_membership_types: [x] }))],
    ['item grant_membership_type', () => `${E}/items/`, item((x) => ({ grant_membership_type: x }))],
    ['item hidden_if_available', () => `${E}/items/`, item((x) => ({ hidden_if_available: x }))],
    ['item hidden_if_item_available', () => `${E}/items/`, item((x) => ({ hidden_if_item_available: x }))],
    ['bundle bundled_item', () => `${E}/items/${own.simpleItem}/bundles/`, (x) => ({ bundled_item: x })],
    [
      'bundle bundled_variation',
      () => `${E}/items/${own.simpleItem}/bundles/`,
      (x) => ({ bundled_item: own.item, bundled_variation: x }),
    ],
    ['addon addon_category', () => `${E}/items/${own.simpleItem}/addons/`, (x) => ({ addon_category: x })],
    ['quota items', () => `${E}/quotas/`, (x) => ({ name: 'N', size: 1, items: [x] })],
    [
      'quota variations',
      () => `${E}/quotas/`,
      (x) => ({ name: 'N', size: 1, items: [own.item], variations: [x] }),
    ],
    ['voucher item', () => `${E}/vouchers/`, (x) => ({ item: x })],
    ['voucher variation', () => `${E}/vouchers/`, (x) => ({ item: own.item, variation: x })],
    ['voucher quota', () => `${E}/vouchers/`, (x) => ({ quota: x })],
    ['voucher batch item', () => `${E}/vouchers/batch_create/`, (x) => [{ code: 'BATCH1', item: x }]],
    [
      'category cross_selling_match_products',
      () => `${E}/categories/`,
      (x) => ({ name: 'C', cross_selling_condition: 'products', cross_selling_match_products: [x] }),
    ],
    [
      'discount condition_limit_products',
      () => `${E}/discounts/`,
      (x) => ({ internal_name: 'D', condition_all_products: false, condition_limit_products: [x] }),
    ],
    [
      'discount benefit_limit_products',
      () => `${E}/discounts/`,
      (x) => ({ internal_name: 'D', benefit_same_products: false, benefit_limit_products: [x] }),
    ],
    ['question items', () => `${E}/questions/`, (x) => ({ question: 'Q', type: 'S', items: [x] })],
    [
      'question dependency_question',
      () => `${E}/questions/`,
      (x) => ({
        question: 'Q',
        type: 'S',
        items: [own.simpleItem],
        dependency_question: x,
        dependency_values: ['x'],
      }),
    ],
    ['order position item', () => `${E}/orders/`, order((x) => ({ item: x }))],
    ['order position variation', () => `${E}/orders/`, order((x) => ({ item: own.item, variation: x }))],
    ['order position voucher', () => `${E}/orders/`, order((x) => ({ voucher: x }))],
    [
      'order answer question',
      () => `${E}/orders/`,
      order((x) => ({ answers: [{ question: x, answer: 'x' }] })),
    ],
    [
      'order answer options',
      () => `${E}/orders/`,
      order((x) => ({ answers: [{ question: own.question, options: [x] }] })),
    ],
    ['cart position item', () => `${E}/cartpositions/`, (x) => ({ item: x, price: '5.00' })],
    [
      'cart position variation',
      () => `${E}/cartpositions/`,
      (x) => ({ item: own.item, variation: x, price: '5.00' }),
    ],
    [
      'cart position answer question',
      () => `${E}/cartpositions/`,
      (x) => ({ item: own.simpleItem, price: '5.00', answers: [{ question: x, answer: 'x' }] }),
    ],
    [
      'cart position answer options',
      () => `${E}/cartpositions/`,
      (x) => ({ item: own.simpleItem, price: '5.00', answers: [{ question: own.question, options: [x] }] }),
    ],
    ['cart bulk item', () => `${E}/cartpositions/bulk_create/`, (x) => [{ item: x, price: '5.00' }]],
    [
      'gift card owner_ticket',
      () => `${A}/giftcards/`,
      (x) => ({ currency: 'EUR', value: '1.00', owner_ticket: x }),
    ],
    [
      'medium linked_giftcard',
      () => `${A}/reusablemedia/`,
      (x) => ({ type: 'barcode', identifier: `G${x}`, linked_giftcard: x }),
    ],
    [
      'medium linked_orderposition',
      () => `${A}/reusablemedia/`,
      (x) => ({ type: 'barcode', identifier: `P${x}`, linked_orderposition: x }),
    ],
    ['PATCH quota items', () => `PATCH ${E}/quotas/${own.quota}/`, (x) => ({ items: [x] })],
    ['PATCH voucher item', () => `PATCH ${E}/vouchers/${own.voucher}/`, (x) => ({ item: x })],
    ['PATCH item category', () => `PATCH ${E}/items/${own.simpleItem}/`, (x) => ({ category: x })],
    [
      'PATCH question dependency_question',
      () => `PATCH ${E}/questions/${own.textQuestion}/`,
      (x) => ({ dependency_question: x, dependency_values: ['x'] }),
    ],
  ];

  /** Which foreign id a case sends: the row of the kind the field names. */
  const kindOf: Record<string, string> = {
    'item category': 'category',
    'item tax_rule': 'taxRule',
    'item require_membership_types': 'membershipType',
    'item grant_membership_type': 'membershipType',
    'item hidden_if_available': 'quota',
    'item hidden_if_item_available': 'simpleItem',
    'bundle bundled_item': 'simpleItem',
    'bundle bundled_variation': 'variation',
    'addon addon_category': 'category',
    'quota items': 'simpleItem',
    'quota variations': 'variation',
    'voucher item': 'simpleItem',
    'voucher variation': 'variation',
    'voucher quota': 'quota',
    'voucher batch item': 'simpleItem',
    'category cross_selling_match_products': 'simpleItem',
    'discount condition_limit_products': 'simpleItem',
    'discount benefit_limit_products': 'simpleItem',
    'question items': 'simpleItem',
    'question dependency_question': 'question',
    'order position item': 'simpleItem',
    'order position variation': 'variation',
    'order position voucher': 'voucher',
    'order answer question': 'textQuestion',
    'order answer options': 'option',
    'cart position item': 'simpleItem',
    'cart position variation': 'variation',
    'cart position answer question': 'textQuestion',
    'cart position answer options': 'option',
    'cart bulk item': 'simpleItem',
    'gift card owner_ticket': 'position',
    'medium linked_giftcard': 'giftcard',
    'medium linked_orderposition': 'position',
    'PATCH quota items': 'simpleItem',
    'PATCH voucher item': 'simpleItem',
    'PATCH item category': 'category',
    'PATCH question dependency_question': 'question',
  };

  /** Status and body with the id sent replaced by `#`, so the answers to two ids can be compared. */
  async function answer(target: string, body: unknown, id: number): Promise<string> {
    const [method, path] = target.startsWith('PATCH ') ? ['patch', target.slice(6)] : ['post', target];
    const res = await t
      .http()
      [method as 'post' | 'patch'](path)
      .set('Authorization', auth(token))
      .send(body as object);
    return `${res.status} ${JSON.stringify(res.body).split(String(id)).join('#')}`;
  }

  it.each(cases)('%s: another organizer’s id answers like an unknown id', async (name, path, body) => {
    const id = foreign[kindOf[name]];
    if (id === undefined) throw new Error(`${name}: no fixture of the other organizer for kind ${kindOf[name]}`);
    const unknown = await answer(path(), body(UNKNOWN), UNKNOWN);
    const other = await answer(path(), body(id), id);
    expect(unknown).toMatch(/^4\d\d |^200 .*"success":false/); // bulk_create answers 200 with per-entry errors
    if (process.env.SHOW_ANSWERS) console.log(`${name}: ${unknown}`);
    expect(other).toBe(unknown);
  });

  it('gift card owner_ticket by secret: another organizer’s ticket secret answers like an unknown one', async () => {
    const send = (secret: string) =>
      t
        .http()
        .post(`${A}/giftcards/`)
        .set('Authorization', auth(token))
        .send({ currency: 'EUR', value: '1.00', owner_ticket: secret });
    const unknown = await send('nosuchsecret0000000000000000000000');
    const other = await send(secrets[E2]);
    expect(unknown.status).toBe(400);
    expect([other.status, JSON.stringify(other.body).replace(secrets[E2], '#')]).toEqual([
      400,
      JSON.stringify(unknown.body).replace('nosuchsecret0000000000000000000000', '#'),
    ]);
    const ownTicket = await send(secrets[E]);
    expect(ownTicket.status).toBe(201);
  });

  it('team limit_events: another organizer’s event slug answers like an unknown slug', async () => {
    const send = (slug: string) =>
      t
        .http()
        .post(`${A}/teams/`)
        .set('Authorization', auth(token))
        .send({ name: 'T', limit_events: [slug] });
    const unknown = await send('nosuchevent');
    const other = await send('bonly');
    expect(unknown.status).toBe(400);
    expect([other.status, JSON.stringify(other.body).replace('bonly', '#')]).toEqual([
      400,
      JSON.stringify(unknown.body).replace('nosuchevent', '#'),
    ]);
  });
});
