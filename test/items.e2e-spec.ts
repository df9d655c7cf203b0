import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/** `E/items/` (compat §3.10; permissions per docs/permissions.md). */
describe('items', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const INLINE_REFUSED = {
    non_field_errors: [
      'Updating add-ons, bundles, program times or variations via PATCH/PUT is not supported. Please use the dedicated nested endpoint.',
    ],
  };

  /** The representation of `{"name": {"en": "Ticket"}, "default_price": "23.00"}` (compat §3.10 defaults). */
  const DEFAULT_ITEM = {
    name: { en: 'Ticket' },
    internal_name: null,
    sales_channels: ['api', 'web'],
    all_sales_channels: true,
    limit_sales_channels: [],
    default_price: '23.00',
    original_price: null,
    category: null,
    active: true,
    description: null,
    free_price: false,
    free_price_suggestion: null,
    tax_rate: '0.00',
    tax_rule: null,
    admission: false,
    personalized: false,
    issue_giftcard: false,
    meta_data: {},
    position: 0,
    picture: null,
    available_from: null,
    available_from_mode: 'hide',
    available_until: null,
    available_until_mode: 'hide',
    hidden_if_available: null,
    hidden_if_item_available: null,
    hidden_if_item_available_mode: 'hide',
    require_voucher: false,
    hide_without_voucher: false,
    allow_cancel: true,
    require_bundling: false,
    min_per_order: null,
    max_per_order: null,
    checkin_attention: false,
    checkin_text: null,
    has_variations: false,
    require_approval: false,
    generate_tickets: null,
    show_quota_left: null,
    allow_waitinglist: true,
    require_membership: false,
    require_membership_types: [],
    require_membership_hidden: false,
    grant_membership_type: null,
    grant_membership_duration_like_event: true,
    grant_membership_duration_days: 0,
    grant_membership_duration_months: 0,
    validity_mode: null,
    validity_fixed_from: null,
    validity_fixed_until: null,
    validity_dynamic_duration_minutes: null,
    validity_dynamic_duration_hours: null,
    validity_dynamic_duration_days: null,
    validity_dynamic_duration_months: null,
    validity_dynamic_start_choice: false,
    validity_dynamic_start_choice_day_limit: null,
    media_policy: null,
    media_type: null,
    variations: [],
    addons: [],
    bundles: [],
    program_times: [],
  };

  /** Every writable field set away from its default (tax rule, quotas, memberships and meta data excepted). */
  const FULL_INPUT = {
    name: { en: 'Full', de: 'Voll' },
    internal_name: 'full-internal',
    default_price: 42.5,
    active: false,
    description: { en: 'Described' },
    free_price: true,
    free_price_suggestion: '50',
    admission: true,
    personalized: true,
    position: 7,
    generate_tickets: false,
    allow_waitinglist: false,
    available_from: '2030-01-01T10:00:00+01:00',
    available_from_mode: 'info',
    available_until: '2030-02-01T10:00:00Z',
    available_until_mode: 'info',
    require_bundling: true,
    require_voucher: true,
    hide_without_voucher: true,
    allow_cancel: false,
    min_per_order: 1,
    max_per_order: 5,
    checkin_attention: true,
    checkin_text: 'Check ID',
    require_approval: true,
    show_quota_left: true,
    original_price: '60.00',
    require_membership: true,
    require_membership_hidden: true,
    grant_membership_duration_like_event: false,
    grant_membership_duration_days: 3,
    grant_membership_duration_months: 2,
    media_policy: 'reuse',
    media_type: 'barcode',
    validity_mode: 'dynamic',
    validity_fixed_from: '2030-01-01T00:00:00Z',
    validity_fixed_until: '2030-12-31T23:59:59Z',
    validity_dynamic_duration_minutes: 10,
    validity_dynamic_duration_hours: 2,
    validity_dynamic_duration_days: 1,
    validity_dynamic_duration_months: 12,
    validity_dynamic_start_choice: true,
    validity_dynamic_start_choice_day_limit: 30,
    all_sales_channels: false,
    limit_sales_channels: ['web'],
  };
  const FULL_OUTPUT = {
    ...DEFAULT_ITEM,
    ...FULL_INPUT,
    name: { en: 'Full', de: 'Voll' },
    default_price: '42.50',
    free_price_suggestion: '50.00',
    available_from: '2030-01-01T09:00:00Z',
    sales_channels: ['web'],
    validity_fixed_until: '2030-12-31T23:59:59Z',
  };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: unknown, tok = token) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(tok))
      .send(body as object);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  type ItemBody = { id: number } & Record<string, unknown>;

  async function createItem(body: object, base = E): Promise<ItemBody> {
    const res = await post(`${base}/items/`, { name: { en: 'Ticket' }, default_price: '23.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createCategory(body: object, base = E): Promise<{ id: number }> {
    const res = await post(`${base}/categories/`, body);
    if (res.status !== 201) throw new Error(`createCategory: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function logActions(objectId: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'item' AND object_id = $1 ORDER BY id",
      [objectId],
    );
    return rows.map((r) => r.action_type);
  }

  async function itemCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM item');
    return Number(rows[0].n);
  }

  async function rowCount(table: string): Promise<number> {
    const rows: { n: string }[] = await t.db.query(`SELECT count(*) AS n FROM ${table}`);
    return Number(rows[0].n);
  }

  /** Id of an event of organizer `org` (events carry no id on the wire). */
  async function eventId(slug: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      "SELECT e.id FROM event e JOIN organizer o ON o.id = e.organizer_id WHERE o.slug = 'org' AND e.slug = $1",
      [slug],
    );
    return rows[0].id;
  }

  /** A tax rule row written directly (the tax rule endpoints are another resource's business). */
  async function taxRule(slug: string, rate: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      `INSERT INTO tax_rule (event_id, name, rate) VALUES ($1, '{"en": "VAT"}', $2) RETURNING id`,
      [await eventId(slug), rate],
    );
    return rows[0].id;
  }

  async function quota(slug: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      "INSERT INTO quota (event_id, name, size) VALUES ($1, 'Q', 10) RETURNING id",
      [await eventId(slug)],
    );
    return rows[0].id;
  }

  async function membershipType(orgId: number): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      `INSERT INTO membership_type (organizer_id, name) VALUES ($1, '{"en": "Member"}') RETURNING id`,
      [orgId],
    );
    return rows[0].id;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { limitEvents: ['sample'], eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a minimal item with the full default representation and shows it on detail', async () => {
      const res = await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '23.00' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_ITEM });
      const again = await get(`${E}/items/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logActions(res.body.id)).toEqual(['pretix.event.item.added']);
    });

    it('stores every writable field and shows it on detail', async () => {
      const category = await createCategory({ name: 'Cat' });
      const target = await createItem({ name: 'Target' });
      const res = await post(`${E}/items/`, {
        ...FULL_INPUT,
        category: category.id,
        hidden_if_item_available: target.id,
      });
      expect(res.status).toBe(201);
      const expected = {
        ...FULL_OUTPUT,
        id: res.body.id,
        category: category.id,
        hidden_if_item_available: target.id,
      };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/items/${res.body.id}/`)).body).toEqual(expected);
    });

    it('accepts a plain-string name and numbers as money, and ignores read-only fields', async () => {
      const res = await post(`${E}/items/`, {
        name: 'Plain',
        default_price: 10,
        original_price: 12.5,
        picture: 'file:abc',
        tax_rate: '19.00',
        id: 5000,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        ...DEFAULT_ITEM,
        id: res.body.id,
        name: { en: 'Plain' },
        default_price: '10.00',
        original_price: '12.50',
      });
      expect(res.body.id).not.toBe(5000);
    });

    it('takes has_variations on create', async () => {
      const res = await post(`${E}/items/`, { name: 'V', default_price: 1, has_variations: true });
      expect(res.status).toBe(201);
      expect(res.body.has_variations).toBe(true);
    });

    it.each([
      [{ default_price: '1.00' }, { name: ['This field is required.'] }],
      [{ name: 'x' }, { default_price: ['This field is required.'] }],
      [{ name: 'x', default_price: null }, { default_price: ['This field may not be null.'] }],
      [{ name: null, default_price: '1' }, { name: ['This field may not be null.'] }],
      [
        { name: 'x', default_price: '1.001' },
        { default_price: ['Ensure that there are no more than 2 decimal places.'] },
      ],
      [{ name: 'x', default_price: 'cheap' }, { default_price: ['A valid number is required.'] }],
      [
        { name: 'x', default_price: '12345678901234' },
        { default_price: ['Ensure that there are no more than 13 digits in total.'] },
      ],
      [
        { name: 'x', default_price: 1, free_price_suggestion: '1.234' },
        { free_price_suggestion: ['Ensure that there are no more than 2 decimal places.'] },
      ],
      [
        { name: 'x', default_price: 1, original_price: 'x' },
        { original_price: ['A valid number is required.'] },
      ],
      [{ name: 'x', default_price: 1, active: null }, { active: ['This field may not be null.'] }],
      [{ name: 'x', default_price: 1, active: 'yes' }, { active: ['Must be a valid boolean.'] }],
      [{ name: 'x', default_price: 1, position: 1.5 }, { position: ['A valid integer is required.'] }],
      [
        { name: 'x', default_price: 1, min_per_order: -1 },
        { min_per_order: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { name: 'x', default_price: 1, internal_name: 'n'.repeat(256) },
        { internal_name: ['Ensure this field has no more than 255 characters.'] },
      ],
      [
        { name: 'x', default_price: 1, available_from: 'tomorrow' },
        {
          available_from: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [
        { name: 'x', default_price: 1, available_from_mode: 'show' },
        { available_from_mode: ['"show" is not a valid choice.'] },
      ],
      [
        { name: 'x', default_price: 1, available_until_mode: null },
        { available_until_mode: ['This field may not be null.'] },
      ],
      [
        { name: 'x', default_price: 1, validity_mode: 'forever' },
        { validity_mode: ['"forever" is not a valid choice.'] },
      ],
      [
        { name: 'x', default_price: 1, media_policy: 'keep' },
        { media_policy: ['"keep" is not a valid choice.'] },
      ],
      [
        { name: 'x', default_price: 1, media_type: 'paper' },
        { media_type: ['"paper" is not a valid choice.'] },
      ],
      [
        { name: 'x', default_price: 1, limit_sales_channels: ['web', 'bar'] },
        { limit_sales_channels: ['Object with identifier=bar does not exist.'] },
      ],
      [
        { name: 'x', default_price: 1, sales_channels: ['box'] },
        { limit_sales_channels: ['Object with identifier=box does not exist.'] },
      ],
      [
        { name: 'x', default_price: 1, sales_channels: null },
        {
          sales_channels: ["The legacy attribute 'sales_channels' cannot be set to None, it must be a list."],
        },
      ],
      [
        { name: 'x', default_price: 1, all_sales_channels: true, sales_channels: ['web'] },
        {
          all_sales_channels: [
            "If 'all_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the list of all sales channels.",
          ],
        },
      ],
      [
        { name: 'x', default_price: 1, limit_sales_channels: ['api'], sales_channels: ['web'] },
        {
          limit_sales_channels: [
            "If 'limit_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the same list.",
          ],
        },
      ],
      [
        { name: 'x', default_price: 1, meta_data: { foo: 'bar' } },
        { meta_data: ["Item meta data property 'foo' does not exist."] },
      ],
      [
        { name: 'x', default_price: 1, meta_data: ['foo'] },
        { meta_data: ['Expected a dictionary of items but got type "list".'] },
      ],
      [
        { name: 'x', default_price: 1, tax_rule: 987654 },
        { tax_rule: ["The item's tax rule must belong to the same event as the item."] },
      ],
      [
        { name: 'x', default_price: 1, category: 987654 },
        { category: ["The item's category must belong to the same event as the item."] },
      ],
      [
        { name: 'x', default_price: 1, hidden_if_available: 987653 },
        { hidden_if_available: ['Invalid pk "987653" - object does not exist.'] },
      ],
      [
        { name: 'x', default_price: 1, hidden_if_item_available: 987654 },
        { hidden_if_item_available: ['Invalid pk "987654" - object does not exist.'] },
      ],
      [
        { name: 'x', default_price: 1, require_membership_types: [987652, 987651] },
        { require_membership_types: ['Invalid pk "987652" - object does not exist.'] },
      ],
      [
        { name: 'x', default_price: 1, grant_membership_type: 987650 },
        { grant_membership_type: ['Invalid pk "987650" - object does not exist.'] },
      ],
      [
        { name: 'x', default_price: 1, min_per_order: 5, max_per_order: 4 },
        {
          non_field_errors: [
            'The maximum number per order can not be lower than the minimum number per order.',
          ],
        },
      ],
      [
        {
          name: 'x',
          default_price: 1,
          available_from: '2030-01-02T00:00:00Z',
          available_until: '2030-01-01T00:00:00Z',
        },
        { non_field_errors: ["The item's availability cannot end before it starts."] },
      ],
      [
        { name: 'x', default_price: 1, personalized: true },
        { non_field_errors: ['Only admission products can currently be personalized.'] },
      ],
      [
        { name: 'x', default_price: 1, admission: true, issue_giftcard: true },
        { non_field_errors: ['Gift card products should not be admission products at the same time.'] },
      ],
      [
        { name: 'x', default_price: 1, media_policy: 'new' },
        {
          non_field_errors: [
            'If you select a reusable media policy, you also need to select a reusable media type.',
          ],
        },
      ],
      [
        { name: 'x', default_price: 1, media_policy: 'reuse_or_new', media_type: 'nfc_uid' },
        { non_field_errors: ['The selected media type does not support usage for tickets currently.'] },
      ],
      [
        {
          name: 'x',
          default_price: 1,
          media_policy: 'reuse',
          media_type: 'nfc_mf0aes',
          issue_giftcard: true,
        },
        {
          non_field_errors: [
            'You currently cannot create gift cards with a reusable media policy. Instead, gift cards for some reusable media types can be created or re-charged directly at the POS.',
          ],
        },
      ],
      [
        { name: 'x', default_price: 1, variations: 'S' },
        { variations: ['Expected a list of items but got type "str".'] },
      ],
      [
        { name: 'x', default_price: 1, addons: { addon_category: 1 } },
        { addons: ['Expected a list of items but got type "dict".'] },
      ],
      [{ name: 'x', default_price: 1, bundles: null }, { bundles: ['This field may not be null.'] }],
    ])('answers 400 for %j and creates nothing', async (body, errors) => {
      const before = await itemCount();
      const res = await post(`${E}/items/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await itemCount()).toBe(before);
    });

    it('collects field and cross-field errors together', async () => {
      const res = await post(`${E}/items/`, {
        name: 'x',
        default_price: 1,
        tax_rule: 987654,
        min_per_order: 3,
        max_per_order: 1,
        personalized: true,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        tax_rule: ["The item's tax rule must belong to the same event as the item."],
        non_field_errors: [
          'The maximum number per order can not be lower than the minimum number per order.',
          'Only admission products can currently be personalized.',
        ],
      });
    });

    it('refuses a category and a hidden_if_item_available of another event', async () => {
      const foreignCategory = await createCategory({ name: 'Foreign' }, OTHER);
      const foreignItem = await createItem({ name: 'Foreign' }, OTHER);
      const res = await post(`${E}/items/`, {
        name: 'x',
        default_price: 1,
        category: foreignCategory.id,
        hidden_if_item_available: foreignItem.id,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        category: ["The item's category must belong to the same event as the item."],
        hidden_if_item_available: [`Invalid pk "${foreignItem.id}" - object does not exist.`],
      });
    });

    it('accepts empty inline lists, empty meta data and null tax rule', async () => {
      const res = await post(`${E}/items/`, {
        name: 'x',
        default_price: 1,
        variations: [],
        addons: [],
        bundles: [],
        meta_data: {},
        tax_rule: null,
        require_membership_types: [],
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        ...DEFAULT_ITEM,
        id: res.body.id,
        name: { en: 'x' },
        default_price: '1.00',
      });
    });

    it('makes admission items personalized unless told otherwise (compat)', async () => {
      const implicit = await createItem({ admission: true });
      expect([implicit.admission, implicit.personalized]).toEqual([true, true]);
      const explicit = await createItem({ admission: true, personalized: false });
      expect([explicit.admission, explicit.personalized]).toEqual([true, false]);
    });

    it('accepts a gift card without admission and a barcode media policy for tickets', async () => {
      const giftcard = await createItem({ issue_giftcard: true });
      expect(giftcard.issue_giftcard).toBe(true);
      const medium = await createItem({ media_policy: 'reuse_or_new', media_type: 'barcode' });
      expect([medium.media_policy, medium.media_type]).toEqual(['reuse_or_new', 'barcode']);
      const typeOnly = await createItem({ media_type: 'nfc_uid' });
      expect([typeOnly.media_policy, typeOnly.media_type]).toEqual([null, 'nfc_uid']);
    });
  });

  describe('inline variations, add-ons and bundles on create', () => {
    async function counts(): Promise<number[]> {
      return [
        await itemCount(),
        await rowCount('item_variation'),
        await rowCount('item_addon'),
        await rowCount('item_bundle'),
      ];
    }

    it('creates them with the item, lists them as their endpoints return them, and logs one entry', async () => {
      const category = await createCategory({ name: 'Extras', is_addon: true });
      const included = await createItem({ name: 'Included' });
      const shirt = await createItem({ name: 'Shirt', variations: [{ value: 'S' }] });
      const shirtVariation = (shirt.variations as ItemBody[])[0].id;
      const res = await post(`${E}/items/`, {
        name: 'Bundle',
        default_price: '50.00',
        variations: [
          { value: 'Late', position: 2, default_price: '60' },
          { value: { en: 'Early' }, position: 1, sales_channels: ['web'] },
        ],
        addons: [{ addon_category: category.id, min_count: 1, max_count: 2, price_included: true }],
        bundles: [
          { bundled_item: included.id, count: 2, designated_price: '5.00' },
          { bundled_item: shirt.id, bundled_variation: shirtVariation },
        ],
      });
      expect(res.status).toBe(201);
      const item = res.body as ItemBody & Record<string, ItemBody[]>;
      expect(item.has_variations).toBe(true);
      const variations = (await get(`${E}/items/${item.id}/variations/`)).body.results;
      const addons = (await get(`${E}/items/${item.id}/addons/`)).body.results;
      const bundles = (await get(`${E}/items/${item.id}/bundles/?ordering=id`)).body.results;
      expect(item.variations).toEqual(variations);
      expect(item.addons).toEqual(addons);
      expect(item.bundles).toEqual(bundles);
      expect(variations.map((v: ItemBody) => [v.value, v.price, v.sales_channels])).toEqual([
        [{ en: 'Early' }, '50.00', ['web']],
        [{ en: 'Late' }, '60.00', ['api', 'web']],
      ]);
      expect(addons).toEqual([
        {
          id: expect.any(Number),
          addon_category: category.id,
          min_count: 1,
          max_count: 2,
          position: 0,
          multi_allowed: false,
          price_included: true,
        },
      ]);
      expect(bundles).toEqual([
        {
          id: expect.any(Number),
          bundled_item: included.id,
          bundled_variation: null,
          count: 2,
          designated_price: '5.00',
        },
        {
          id: expect.any(Number),
          bundled_item: shirt.id,
          bundled_variation: shirtVariation,
          count: 1,
          designated_price: '0.00',
        },
      ]);
      expect((await get(`${E}/items/${item.id}/`)).body).toEqual(item);
      expect(await logActions(item.id)).toEqual(['pretix.event.item.added']);
    });

    it('makes an item created with variations has_variations, even when told otherwise', async () => {
      const item = await createItem({ has_variations: false, variations: [{ value: 'Only' }] });
      expect(item.has_variations).toBe(true);
      expect((item.variations as ItemBody[]).map((v) => v.value)).toEqual([{ en: 'Only' }]);
    });

    it.each([
      [{ variations: [{ value: 'S' }, {}] }, { variations: [{}, { value: ['This field is required.'] }] }],
      [
        {
          variations: [
            { value: 'S', position: -1 },
            { value: 'M', default_price: 'x' },
          ],
        },
        {
          variations: [
            { position: ['Ensure this value is greater than or equal to 0.'] },
            { default_price: ['A valid number is required.'] },
          ],
        },
      ],
      [{ variations: ['S'] }, { variations: [['Invalid data. Expected a dictionary, but got str.']] }],
      [
        { variations: [{ value: 'S' }, { value: 'M', require_membership_types: [987654] }] },
        { variations: [{}, { require_membership_types: ['Invalid pk "987654" - object does not exist.'] }] },
      ],
      [
        { variations: [{ value: 'S', meta_data: { a: 'b' }, sales_channels: null }] },
        {
          variations: [
            {
              sales_channels: [
                "The legacy attribute 'sales_channels' cannot be set to None, it must be a list.",
              ],
              meta_data: ["Item meta data property 'a' does not exist."],
            },
          ],
        },
      ],
      [{ addons: [{}] }, { addons: [{ addon_category: ['This field is required.'] }] }],
      [
        { addons: [{ addon_category: 987654 }] },
        { addons: ["The add-on's category must belong to the same event as the item."] },
      ],
      [
        { addons: [{ addon_category: 'OWN', min_count: 110, max_count: 10 }] },
        { addons: ['The maximum count needs to be greater than the minimum count.'] },
      ],
      [
        { addons: [{ addon_category: 'OWN', min_count: -1, max_count: 10 }] },
        { addons: ['The minimum count needs to be equal to or greater than zero.'] },
      ],
      [
        { addons: [{ addon_category: 'OWN', max_count: -1 }] },
        { addons: ['The maximum count needs to be equal to or greater than zero.'] },
      ],
      [
        { addons: [{ addon_category: 'OWN' }, { addon_category: 'OWN' }] },
        { addons: ['The item already has an add-on of this category.'] },
      ],
      [
        { bundles: [{ count: 0 }] },
        {
          bundles: [
            {
              bundled_item: ['This field is required.'],
              count: ['Ensure this value is greater than or equal to 1.'],
            },
          ],
        },
      ],
      [
        { bundles: [{ bundled_item: 987654 }] },
        { bundles: ['The bundled item must belong to the same event as the item.'] },
      ],
      [
        { bundles: [{ bundled_item: 'OWN', bundled_variation: 987654 }] },
        { bundles: ['The chosen variation does not belong to this item.'] },
      ],
    ] as [Record<string, unknown[]>, object][])(
      'answers 400 for %j and creates nothing',
      async (raw, errors) => {
        // `OWN` stands for one fresh category (add-ons) or plain item (bundles) of the event.
        const category = (await createCategory({ name: 'Own' })).id;
        const plain = (await createItem({ name: 'Plain' })).id;
        const body = Object.fromEntries(
          Object.entries(raw).map(([key, list]) => [
            key,
            list.map((entry) =>
              typeof entry === 'object' && entry !== null
                ? Object.fromEntries(
                    Object.entries(entry).map(([k, v]) => [
                      k,
                      v === 'OWN' ? (key === 'addons' ? category : plain) : v,
                    ]),
                  )
                : entry,
            ),
          ]),
        );
        const before = await counts();
        const res = await post(`${E}/items/`, { name: 'x', default_price: 1, ...body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
        expect(await counts()).toEqual(before);
      },
    );

    it('refuses foreign and nested bundled items, missing variations, and reports every problem at once', async () => {
      const foreignCategory = await createCategory({ name: 'F' }, OTHER);
      const foreignItem = await createItem({ name: 'Foreign' }, OTHER);
      const shirt = await createItem({ name: 'Shirt', variations: [{ value: 'S' }] });
      const bundling = await createItem({
        name: 'Bundling',
        bundles: [{ bundled_item: (await createItem({})).id }],
      });
      const before = await counts();
      // Field types first (request validation), in the item and in every list at once ...
      const types = await post(`${E}/items/`, {
        name: null,
        default_price: 1,
        variations: [{ value: 'S' }, { value: null }],
        addons: [{ addon_category: foreignCategory.id }, { min_count: 'x' }],
        bundles: [{ bundled_item: foreignItem.id }],
      });
      expect(types.status).toBe(400);
      expect(types.body).toEqual({
        name: ['This field may not be null.'],
        variations: [{}, { value: ['This field may not be null.'] }],
        addons: [
          {},
          { addon_category: ['This field is required.'], min_count: ['A valid integer is required.'] },
        ],
      });
      // ... then the rules, again all at once.
      const rules = await post(`${E}/items/`, {
        name: 'x',
        default_price: 1,
        personalized: true,
        category: foreignCategory.id,
        variations: [{ value: 'S', require_membership_types: [987654] }],
        addons: [{ addon_category: foreignCategory.id }],
        bundles: [
          { bundled_item: foreignItem.id },
          { bundled_item: shirt.id },
          { bundled_item: bundling.id },
          { bundled_item: foreignItem.id, count: 2 },
        ],
      });
      expect(rules.status).toBe(400);
      expect(rules.body).toEqual({
        category: ["The item's category must belong to the same event as the item."],
        non_field_errors: ['Only admission products can currently be personalized.'],
        variations: [{ require_membership_types: ['Invalid pk "987654" - object does not exist.'] }],
        addons: ["The add-on's category must belong to the same event as the item."],
        bundles: [
          'The bundled item must belong to the same event as the item.',
          'A variation needs to be set for this item.',
          'The bundled item must not have bundles on its own.',
        ],
      });
      expect(await counts()).toEqual(before);
    });
  });

  describe('references: tax rules, quotas, membership types', () => {
    let organizerId: number;

    beforeAll(async () => {
      ({ organizerId } = await bootstrapOrganizer(t, 'org'));
    });

    it('takes a tax rule of the event and shows its rate as tax_rate', async () => {
      const vat = await taxRule('sample', '19.00');
      const item = await createItem({ tax_rule: vat });
      expect([item.tax_rule, item.tax_rate]).toEqual([vat, '19.00']);
      expect((await get(`${E}/items/${item.id}/`)).body).toEqual(item);
      const reduced = await taxRule('sample', '7.50');
      const changed = await patch(`${E}/items/${item.id}/`, { tax_rule: reduced });
      expect([changed.body.tax_rule, changed.body.tax_rate]).toEqual([reduced, '7.50']);
      const cleared = await patch(`${E}/items/${item.id}/`, { tax_rule: null });
      expect([cleared.body.tax_rule, cleared.body.tax_rate]).toEqual([null, '0.00']);
    });

    it('refuses a tax rule of another event', async () => {
      const foreign = await taxRule('other', '19.00');
      const res = await post(`${E}/items/`, { name: 'x', default_price: 1, tax_rule: foreign });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        tax_rule: ["The item's tax rule must belong to the same event as the item."],
      });
    });

    it('refuses a gift card with a non-zero tax rule, on create and on the merged data of PATCH', async () => {
      const message = {
        non_field_errors: [
          'Gift card products should not be associated with non-zero tax rates since sales tax will be applied when the gift card is redeemed.',
        ],
      };
      const vat = await taxRule('sample', '19.00');
      const zero = await taxRule('sample', '0.00');
      const created = await post(`${E}/items/`, {
        name: 'x',
        default_price: 1,
        issue_giftcard: true,
        tax_rule: vat,
      });
      expect(created.status).toBe(400);
      expect(created.body).toEqual(message);
      const giftcard = await createItem({ issue_giftcard: true, tax_rule: zero });
      expect([giftcard.tax_rate, giftcard.issue_giftcard]).toEqual(['0.00', true]);
      const patched = await patch(`${E}/items/${giftcard.id}/`, { tax_rule: vat });
      expect(patched.status).toBe(400);
      expect(patched.body).toEqual(message);
      const taxed = await createItem({ tax_rule: vat });
      const switched = await patch(`${E}/items/${taxed.id}/`, { issue_giftcard: true });
      expect(switched.body).toEqual(message);
      expect((await get(`${E}/items/${giftcard.id}/`)).body).toEqual(giftcard);
    });

    it('takes a quota of the event as hidden_if_available, and no other', async () => {
      const own = await quota('sample');
      const item = await createItem({ hidden_if_available: own });
      expect(item.hidden_if_available).toBe(own);
      const foreign = await quota('other');
      const res = await patch(`${E}/items/${item.id}/`, { hidden_if_available: foreign });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ hidden_if_available: [`Invalid pk "${foreign}" - object does not exist.`] });
      await t.db.query('DELETE FROM quota WHERE id = $1', [own]);
      expect((await get(`${E}/items/${item.id}/`)).body.hidden_if_available).toBeNull();
    });

    it('takes membership types of the organizer, and no other organizer’s', async () => {
      const first = await membershipType(organizerId);
      const second = await membershipType(organizerId);
      const item = await createItem({
        require_membership: true,
        require_membership_types: [second, first, second],
        grant_membership_type: first,
      });
      expect([item.require_membership_types, item.grant_membership_type]).toEqual([[first, second], first]);
      const { organizerId: foreignOrg } = await bootstrapOrganizer(t, 'foreign-org');
      const foreign = await membershipType(foreignOrg);
      const res = await patch(`${E}/items/${item.id}/`, {
        require_membership_types: [first, foreign],
        grant_membership_type: foreign,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        require_membership_types: [`Invalid pk "${foreign}" - object does not exist.`],
        grant_membership_type: [`Invalid pk "${foreign}" - object does not exist.`],
      });
      expect((await get(`${E}/items/${item.id}/`)).body).toEqual(item);
    });
  });

  describe('sales channels', () => {
    it.each([
      [{ all_sales_channels: false, limit_sales_channels: ['web'] }, false, ['web'], ['web']],
      [
        { all_sales_channels: false, limit_sales_channels: ['web', 'api', 'web'] },
        false,
        ['api', 'web'],
        ['api', 'web'],
      ],
      [{ all_sales_channels: false }, false, [], []],
      [{ all_sales_channels: true, limit_sales_channels: ['web'] }, true, [], ['api', 'web']],
      [{ sales_channels: ['web'] }, false, ['web'], ['web']],
      [{ sales_channels: ['web', 'api'] }, true, [], ['api', 'web']],
      [{ sales_channels: [] }, false, [], []],
      [{ sales_channels: ['api', 'web'], all_sales_channels: true }, true, [], ['api', 'web']],
      [{ sales_channels: ['api'], limit_sales_channels: ['api'] }, false, ['api'], ['api']],
    ])('%j → all=%s, limit=%j, legacy=%j', async (body, all, limit, legacy) => {
      const item = await createItem(body);
      expect({
        all: item.all_sales_channels,
        limit: item.limit_sales_channels,
        legacy: item.sales_channels,
      }).toEqual({ all, limit, legacy });
      const again = await get(`${E}/items/${item.id}/`);
      expect(again.body.sales_channels).toEqual(legacy);
    });

    it('PATCH with legacy sales_channels switches between all and limited', async () => {
      const item = await createItem({});
      const limited = await patch(`${E}/items/${item.id}/`, { sales_channels: ['api'] });
      expect(limited.status).toBe(200);
      expect([limited.body.all_sales_channels, limited.body.limit_sales_channels]).toEqual([false, ['api']]);
      const all = await patch(`${E}/items/${item.id}/`, { sales_channels: ['web', 'api'] });
      expect([all.body.all_sales_channels, all.body.limit_sales_channels]).toEqual([true, []]);
    });
  });

  describe('list', () => {
    let base: string;
    let ids: Record<string, number>;
    let categoryId: number;

    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'listing' });
      base = '/api/v1/organizers/org/events/listing';
      categoryId = (await createCategory({ name: 'Cat' }, base)).id;
      const addonCategory = (await createCategory({ name: 'Extras', is_addon: true }, base)).id;
      const vat = await taxRule('listing', '19.00');
      const zero = await taxRule('listing', '0.00');
      ids = {};
      // Variations, add-ons, bundles and tax rules on the page make the statement-count test meaningful.
      const specs: [string, object][] = [
        [
          'adult',
          {
            name: { en: 'Adult Ticket', de: 'Erwachsene' },
            position: 2,
            admission: true,
            tax_rule: vat,
            variations: [{ value: 'Early' }, { value: 'Late' }],
            addons: [{ addon_category: addonCategory }],
          },
        ],
        [
          'child',
          { name: { en: 'Child', de: 'Kinderkarte' }, position: 1, admission: true, category: categoryId },
        ],
        ['shirt', { name: 'T-Shirt', internal_name: 'MERCH-100%', position: 1, active: false }],
        [
          'donation',
          { name: 'Donation', position: 3, free_price: true, category: categoryId, tax_rule: zero },
        ],
      ];
      for (const [key, body] of specs) ids[key] = (await createItem(body, base)).id;
      const bundled = await post(`${base}/items/${ids.child}/bundles/`, { bundled_item: ids.shirt });
      expect(bundled.status).toBe(201);
    });

    const keysOf = (res: { body: { results: { id: number }[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it('lists in the envelope ordered by position, id by default', async () => {
      const res = await get(`${base}/items/`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toBeNull();
      expect(keysOf(res)).toEqual(['child', 'shirt', 'adult', 'donation']);
      expect(res.body.results[1]).toEqual({
        ...DEFAULT_ITEM,
        id: ids.shirt,
        name: { en: 'T-Shirt' },
        internal_name: 'MERCH-100%',
        position: 1,
        active: false,
      });
    });

    it('shows the tax rate, variations, add-ons and bundles of every item on the page', async () => {
      const res = await get(`${base}/items/`);
      const byKey = Object.fromEntries(
        res.body.results.map((r: ItemBody) => [Object.keys(ids).find((k) => ids[k] === r.id), r]),
      );
      expect(byKey.adult.tax_rate).toBe('19.00');
      expect(byKey.donation.tax_rate).toBe('0.00');
      for (const key of ['adult', 'child']) {
        const detail = (await get(`${base}/items/${ids[key]}/`)).body;
        expect(byKey[key]).toEqual(detail);
      }
      expect(byKey.adult.variations.map((v: ItemBody) => v.value)).toEqual([{ en: 'Early' }, { en: 'Late' }]);
      expect(byKey.adult.addons).toHaveLength(1);
      expect(byKey.child.bundles.map((b: ItemBody) => b.bundled_item)).toEqual([ids.shirt]);
    });

    it('orders by id, -id and -position; ignores unknown fields', async () => {
      expect(keysOf(await get(`${base}/items/?ordering=id`))).toEqual([
        'adult',
        'child',
        'shirt',
        'donation',
      ]);
      expect(keysOf(await get(`${base}/items/?ordering=-id`))).toEqual([
        'donation',
        'shirt',
        'child',
        'adult',
      ]);
      expect(keysOf(await get(`${base}/items/?ordering=-position`))).toEqual([
        'donation',
        'adult',
        'child',
        'shirt',
      ]);
      expect(keysOf(await get(`${base}/items/?ordering=name`))).toEqual([
        'child',
        'shirt',
        'adult',
        'donation',
      ]);
    });

    it.each([
      ['active=true', ['child', 'adult', 'donation']],
      ['active=false', ['shirt']],
      ['admission=true', ['child', 'adult']],
      ['admission=False', ['shirt', 'donation']],
      ['free_price=1', ['donation']],
      ['free_price=0', ['child', 'shirt', 'adult']],
      [`category=${999999}`, []],
      ['tax_rate=0', ['child', 'shirt', 'donation']],
      ['tax_rate=0.00', ['child', 'shirt', 'donation']],
      ['tax_rate=None', ['child', 'shirt', 'donation']],
      ['tax_rate=19.00', ['adult']],
      ['tax_rate=19', ['adult']],
      ['tax_rate=7', []],
      ['search=ticket', ['adult']],
      ['search=KINDER', ['child']],
      ['search=merch', ['shirt']],
      ['search=100%25', ['shirt']],
      ['search=0%25', ['shirt']],
      ['search=_', []],
      ['search=nothing', []],
      ['active=true&admission=true', ['child', 'adult']],
    ])('filters by %s', async (query, expected) => {
      const res = await get(`${base}/items/?${query}`);
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(expected);
      expect(res.body.count).toBe(expected.length);
    });

    it('filters by category id', async () => {
      expect(keysOf(await get(`${base}/items/?category=${categoryId}`))).toEqual(['child', 'donation']);
    });

    it.each([
      ['active=maybe', { active: ['Must be a valid boolean.'] }],
      ['admission=yes', { admission: ['Must be a valid boolean.'] }],
      ['free_price=2', { free_price: ['Must be a valid boolean.'] }],
      ['category=abc', { category: ['Enter a whole number.'] }],
      ['tax_rate=abc', { tax_rate: ['Enter a number.'] }],
    ])('answers 400 for %s', async (query, errors) => {
      const res = await get(`${base}/items/?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });

    it('paginates', async () => {
      const res = await get(`${base}/items/?page_size=3&page=2`);
      expect(res.body.count).toBe(4);
      expect(keysOf(res)).toEqual(['donation']);
      expect(res.body.next).toBeNull();
    });

    it('shows only items of the event in the URL', async () => {
      const res = await get(`${OTHER}/items/`);
      expect(res.body.results.map((r: { id: number }) => r.id)).not.toContain(ids.adult);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${base}/items/?${query}`));
      // Both pages are full, so both run the row and the count statement (TypeORM skips the count otherwise).
      const one = await count('page_size=1');
      const three = await count('page_size=3');
      expect(one.rows).toBe(1);
      expect(three.rows).toBe(3);
      expect(three.statements).toBe(one.statements);
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, and a second GET shows the change', async () => {
      const category = await createCategory({ name: 'Cat' });
      const created = await post(`${E}/items/`, { ...FULL_INPUT, category: category.id });
      expect(created.status).toBe(201);
      const res = await patch(`${E}/items/${created.body.id}/`, { default_price: '99.90', position: 1 });
      expect(res.status).toBe(200);
      const expected = { ...created.body, default_price: '99.90', position: 1 };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/items/${created.body.id}/`)).body).toEqual(expected);
      expect(await logActions(created.body.id)).toEqual([
        'pretix.event.item.added',
        'pretix.event.item.changed',
      ]);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const item = await createItem({
        name: { en: 'Same', de: 'Gleich' },
        position: 2,
        sales_channels: ['web'],
      });
      const res = await patch(`${E}/items/${item.id}/`, {
        name: { de: 'Gleich', en: 'Same' },
        position: 2,
        default_price: 23,
        limit_sales_channels: ['web'],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(item);
      expect(await logActions(item.id)).toEqual(['pretix.event.item.added']);
    });

    it('PUT resets omitted optional fields to their defaults', async () => {
      const category = await createCategory({ name: 'Cat' });
      const created = await post(`${E}/items/`, { ...FULL_INPUT, category: category.id });
      expect(created.status).toBe(201);
      const res = await put(`${E}/items/${created.body.id}/`, {
        name: { en: 'Ticket' },
        default_price: '23.00',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULT_ITEM, id: created.body.id });
      expect((await get(`${E}/items/${created.body.id}/`)).body).toEqual(res.body);
      expect(await logActions(created.body.id)).toEqual([
        'pretix.event.item.added',
        'pretix.event.item.changed',
      ]);
    });

    it('PUT requires name and default_price', async () => {
      const item = await createItem({});
      const res = await put(`${E}/items/${item.id}/`, { position: 3 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        name: ['This field is required.'],
        default_price: ['This field is required.'],
      });
    });

    it('PATCH refuses null for non-nullable fields and accepts it for nullable ones', async () => {
      const item = await createItem({ description: 'd', min_per_order: 2, original_price: '5' });
      const bad = await patch(`${E}/items/${item.id}/`, { default_price: null, name: null });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        name: ['This field may not be null.'],
        default_price: ['This field may not be null.'],
      });
      const ok = await patch(`${E}/items/${item.id}/`, {
        description: null,
        min_per_order: null,
        original_price: null,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ...item, description: null, min_per_order: null, original_price: null });
    });

    it.each([
      ['PATCH', { variations: [] }],
      ['PATCH', { addons: [{ addon_category: 1 }] }],
      ['PUT', { name: 'x', default_price: 1, bundles: [] }],
      ['PUT', { name: 'x', default_price: 1, variations: null }],
    ] as const)('%s with %j answers 400 non_field_errors and changes nothing', async (method, body) => {
      const item = await createItem({});
      const url = `${E}/items/${item.id}/`;
      const res = method === 'PATCH' ? await patch(url, { ...body, position: 9 }) : await put(url, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INLINE_REFUSED);
      expect((await get(url)).body).toEqual(item);
    });

    it('ignores has_variations on update', async () => {
      const item = await createItem({ has_variations: true });
      const res = await patch(`${E}/items/${item.id}/`, { has_variations: false, position: 4 });
      expect(res.status).toBe(200);
      expect([res.body.has_variations, res.body.position]).toEqual([true, 4]);
      const plain = await createItem({});
      const put2 = await put(`${E}/items/${plain.id}/`, {
        name: 'x',
        default_price: 1,
        has_variations: true,
      });
      expect(put2.body.has_variations).toBe(false);
    });

    it('checks cross-field rules on the merged data', async () => {
      const item = await createItem({ min_per_order: 3, available_from: '2030-06-01T00:00:00Z' });
      const url = `${E}/items/${item.id}/`;
      for (const [body, errors] of [
        [
          { max_per_order: 2 },
          ['The maximum number per order can not be lower than the minimum number per order.'],
        ],
        [
          { available_until: '2030-05-01T00:00:00Z' },
          ["The item's availability cannot end before it starts."],
        ],
        [{ personalized: true }, ['Only admission products can currently be personalized.']],
        [
          { media_policy: 'reuse' },
          ['If you select a reusable media policy, you also need to select a reusable media type.'],
        ],
      ] as const) {
        const res = await patch(url, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ non_field_errors: errors });
      }
      expect((await get(url)).body).toEqual(item);
    });

    it('forces personalized off when admission is switched off, and refuses a gift card admission', async () => {
      const item = await createItem({ admission: true });
      expect(item.personalized).toBe(true);
      const url = `${E}/items/${item.id}/`;
      const giftcard = await patch(url, { issue_giftcard: true });
      expect(giftcard.status).toBe(400);
      expect(giftcard.body).toEqual({
        non_field_errors: ['Gift card products should not be admission products at the same time.'],
      });
      const off = await patch(url, { admission: false });
      expect(off.status).toBe(200);
      expect([off.body.admission, off.body.personalized]).toEqual([false, false]);
      const on = await patch(url, { admission: true });
      expect([on.body.admission, on.body.personalized]).toEqual([true, false]);
    });

    it('validates references on PATCH', async () => {
      const item = await createItem({});
      const foreignCategory = await createCategory({ name: 'F' }, OTHER);
      const url = `${E}/items/${item.id}/`;
      const res = await patch(url, {
        category: foreignCategory.id,
        tax_rule: 987654,
        meta_data: { color: 'red' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        category: ["The item's category must belong to the same event as the item."],
        tax_rule: ["The item's tax rule must belong to the same event as the item."],
        meta_data: ["Item meta data property 'color' does not exist."],
      });
      const own = await createCategory({ name: 'Own' });
      const ok = await patch(url, { category: own.id });
      expect(ok.status).toBe(200);
      expect(ok.body.category).toBe(own.id);
    });
  });

  describe('delete', () => {
    it('deletes the item, logs it, and clears references to it', async () => {
      const item = await createItem({ name: 'Doomed' });
      const watcher = await createItem({ name: 'Watcher', hidden_if_item_available: item.id });
      const res = await del(`${E}/items/${item.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const gone = await get(`${E}/items/${item.id}/`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ detail: 'Not found.' });
      expect((await get(`${E}/items/${watcher.id}/`)).body).toEqual({
        ...watcher,
        hidden_if_item_available: null,
      });
      expect(await logActions(item.id)).toEqual(['pretix.event.item.added', 'pretix.event.item.deleted']);
      expect((await del(`${E}/items/${item.id}/`)).status).toBe(404);
    });
  });

  describe('scoping', () => {
    let foreign: ItemBody;

    beforeAll(async () => {
      foreign = await createItem({ name: 'Foreign' }, OTHER);
    });

    it.each(['get', 'patch', 'put', 'delete'] as const)(
      '%s of an item of another event answers 404',
      async (method) => {
        const url = `${E}/items/${foreign.id}/`;
        const res =
          method === 'get'
            ? await get(url)
            : method === 'delete'
              ? await del(url)
              : method === 'patch'
                ? await patch(url, { name: 'hijack' })
                : await put(url, { name: 'hijack', default_price: 1 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
        expect((await get(`${OTHER}/items/${foreign.id}/`)).body).toEqual(foreign);
      },
    );

    it.each(['abc', '1.5', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
      const res = await get(`${E}/items/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
      expect((await patch(`${E}/items/${id}/`, { position: 1 })).status).toBe(404);
      expect((await put(`${E}/items/${id}/`, { name: 'x', default_price: 1 })).status).toBe(404);
      expect((await del(`${E}/items/${id}/`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let item: ItemBody;

    beforeAll(async () => {
      item = await createItem({ name: 'Perm' });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${E}/items/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().post(`${E}/items/`).send({ name: 'x', default_price: 1 })).status).toBe(401);
      expect((await t.http().delete(`${E}/items/${item.id}/`)).status).toBe(401);
    });

    it('lets a team with event access but without event.items:write read', async () => {
      const list = await get(`${E}/items/?ordering=-id`, reader);
      expect(list.status).toBe(200);
      expect(list.body.results.map((r: { id: number }) => r.id)).toContain(item.id);
      const detail = await get(`${E}/items/${item.id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(item);
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const before = await itemCount();
      const url = `${E}/items/${item.id}/`;
      for (const res of [
        await post(`${E}/items/`, { name: 'x', default_price: 1 }, reader),
        await patch(url, { name: 'x' }, reader),
        await put(url, { name: 'x', default_price: 1 }, reader),
        await del(url, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(item);
      expect(await itemCount()).toBe(before);
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      for (const res of [
        await get(`${E}/items/`, outsider),
        await get(`${E}/items/${item.id}/`, outsider),
        await post(`${E}/items/`, { name: 'x', default_price: 1 }, outsider),
        await patch(`${E}/items/${item.id}/`, { name: 'x' }, outsider),
        await del(`${E}/items/${item.id}/`, outsider),
        await get('/api/v1/organizers/nope/events/sample/items/'),
        await get('/api/v1/organizers/org/events/nope/items/'),
        await post('/api/v1/organizers/org/events/nope/items/', { name: 'x', default_price: 1 }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${E}/items/${item.id}/`)).body).toEqual(item);
    });
  });
});
