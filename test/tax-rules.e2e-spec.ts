import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/** `E/taxrules/` (compat §3.19; permissions per docs/permissions.md: writes need event.settings.tax:write). */
describe('tax rules', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let taxWriter: string;
  let outsider: string;
  const ORG = '/api/v1/organizers/org/events';
  const E = `${ORG}/sample`;
  const OTHER = `${ORG}/other`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const IN_USE = { detail: 'This tax rule can not be deleted as it is currently in use.' };

  /** The representation of `{"name": {"en": "VAT"}, "rate": "19.00"}` as a non-default rule. */
  const DEFAULT_RULE = {
    name: { en: 'VAT' },
    internal_name: null,
    rate: '19.00',
    code: null,
    default: false,
    price_includes_tax: true,
    eu_reverse_charge: false,
    home_country: '',
    keep_gross_if_rate_changes: false,
    custom_rules: null,
  };

  const FULL_INPUT = {
    name: { en: 'VAT', de: 'MwSt' },
    internal_name: 'vat-reduced',
    rate: 7,
    code: 'S/reduced',
    price_includes_tax: false,
    eu_reverse_charge: true,
    home_country: 'DE',
    keep_gross_if_rate_changes: true,
    custom_rules: [
      {
        country: 'AT',
        address_type: 'business_vat_id',
        action: 'reverse',
        invoice_text: { en: 'Reverse charge' },
        ORDER: 1,
        DELETE: false,
      },
      { country: 'EU', address_type: '', action: 'vat', rate: '20' },
      { country: 'ZZ', address_type: 'individual', action: 'no', rate: null, invoice_text: null },
    ],
  };
  const FULL_OUTPUT = {
    ...FULL_INPUT,
    rate: '7.00',
    custom_rules: [
      {
        country: 'AT',
        address_type: 'business_vat_id',
        action: 'reverse',
        rate: null,
        invoice_text: { en: 'Reverse charge' },
      },
      { country: 'EU', address_type: '', action: 'vat', rate: '20.00', invoice_text: null },
      { country: 'ZZ', address_type: 'individual', action: 'no', rate: null, invoice_text: null },
    ],
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

  type RuleBody = { id: number } & Record<string, unknown>;

  let eventCounter = 0;
  /** A fresh event (its own set of rules, so the default rule is predictable). */
  async function freshEvent(): Promise<string> {
    const slug = `ev${++eventCounter}`;
    await createEvent(t, token, 'org', { slug });
    return `${ORG}/${slug}`;
  }

  async function createRule(body: object, base = E): Promise<RuleBody> {
    const res = await post(`${base}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00', ...body });
    if (res.status !== 201) throw new Error(`createRule: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function logActions(objectId: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'taxrule' AND object_id = $1 ORDER BY id",
      [objectId],
    );
    return rows.map((r) => r.action_type);
  }

  async function ruleCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM tax_rule');
    return Number(rows[0].n);
  }

  async function defaults(base: string): Promise<number[]> {
    const res = await get(`${base}/taxrules/`);
    return (res.body.results as RuleBody[]).filter((r) => r.default).map((r) => r.id);
  }

  /** An item of the event using the rule (the reference is written in SQL: this file tests tax rules, not items). */
  async function itemUsing(base: string, ruleId: number): Promise<number> {
    const res = await post(`${base}/items/`, { name: 'Ticket', default_price: '10.00' });
    expect(res.status).toBe(201);
    await t.db.query('UPDATE item SET tax_rule_id = $1 WHERE id = $2', [ruleId, res.body.id]);
    return res.body.id as number;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.items:write', 'event.settings.general:write'],
    });
    taxWriter = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.settings.tax:write'],
    });
    outsider = await teamToken(t, 'org', {
      limitEvents: ['other'],
      eventPermissions: ['event.settings.tax:write'],
    });
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('makes the first rule of an event the default, with the full default representation', async () => {
      const base = await freshEvent();
      const res = await post(`${base}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_RULE, default: true });
      const again = await get(`${base}/taxrules/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logActions(res.body.id)).toEqual(['pretix.event.taxrule.added']);
    });

    it('makes the first rule the default even when it is sent with default false', async () => {
      const base = await freshEvent();
      const rule = await createRule({ default: false }, base);
      expect(rule.default).toBe(true);
    });

    it('adds further rules as non-default, and default: true moves the default to the new rule', async () => {
      const base = await freshEvent();
      const first = await createRule({}, base);
      const second = await createRule({ rate: '7.00' }, base);
      expect([first.default, second.default]).toEqual([true, false]);
      const third = await createRule({ rate: '0', code: 'E', default: true }, base);
      expect(third.default).toBe(true);
      expect(await defaults(base)).toEqual([third.id]);
      expect((await get(`${base}/taxrules/${first.id}/`)).body).toEqual({ ...first, default: false });
    });

    it('stores every writable field and normalises the custom rules', async () => {
      const res = await post(`${E}/taxrules/`, FULL_INPUT);
      expect(res.status).toBe(201);
      const expected = { ...FULL_OUTPUT, id: res.body.id, default: res.body.default };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/taxrules/${res.body.id}/`)).body).toEqual(expected);
    });

    it('accepts a plain-string name, a number rate, null home country and an empty rule list', async () => {
      const res = await post(`${E}/taxrules/`, {
        name: 'Plain',
        rate: 19,
        home_country: null,
        custom_rules: [],
        id: 5000,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        ...DEFAULT_RULE,
        id: res.body.id,
        default: res.body.default,
        name: { en: 'Plain' },
        custom_rules: [],
      });
      expect(res.body.id).not.toBe(5000);
    });

    it.each([
      ['O', '0'],
      ['E', '0.00'],
      ['Z', 0],
      ['AE', '0'],
      ['S/standard', '19'],
      ['S/averaged', '10.7'],
      ['L', '7'],
      [null, '0'],
    ])('accepts code %s with rate %s', async (code, rate) => {
      const res = await post(`${E}/taxrules/`, { name: 'x', rate, code });
      expect(res.status).toBe(201);
      expect(res.body.code).toBe(code);
    });

    const NOT_VALID = 'Your set of rules is not valid. Error message: ';
    it.each<[object, object]>([
      [{ rate: '19.00' }, { name: ['This field is required.'] }],
      [{ name: 'x' }, { rate: ['This field is required.'] }],
      [{ name: null, rate: 1 }, { name: ['This field may not be null.'] }],
      [{ name: 'x', rate: null }, { rate: ['This field may not be null.'] }],
      [{ name: 'x', rate: '19.001' }, { rate: ['Ensure that there are no more than 2 decimal places.'] }],
      [{ name: 'x', rate: 'high' }, { rate: ['A valid number is required.'] }],
      [{ name: 'x', rate: -1 }, { rate: ['Ensure this value is greater than or equal to 0.'] }],
      [{ name: 'x', rate: '100.01' }, { rate: ['Ensure this value is less than or equal to 100.'] }],
      [
        { name: 'x', rate: '123456789' },
        { rate: ['Ensure that there are no more than 8 digits before the decimal point.'] },
      ],
      [{ name: { 'no lang!': 'x' }, rate: 1 }, { name: ['Invalid language code "no lang!".'] }],
      [
        { name: 'x', rate: 1, internal_name: 'n'.repeat(191) },
        { internal_name: ['Ensure this field has no more than 190 characters.'] },
      ],
      [{ name: 'x', rate: 1, code: 'S' }, { code: ['"S" is not a valid choice.'] }],
      [
        { name: 'x', rate: 1, code: 'E/VATEX-EU-79-C' },
        { code: ['"E/VATEX-EU-79-C" is not a valid choice.'] },
      ],
      [{ name: 'x', rate: 1, default: null }, { default: ['This field may not be null.'] }],
      [
        { name: 'x', rate: 1, price_includes_tax: 'yes' },
        { price_includes_tax: ['Must be a valid boolean.'] },
      ],
      [
        { name: 'x', rate: 1, eu_reverse_charge: null },
        { eu_reverse_charge: ['This field may not be null.'] },
      ],
      [
        { name: 'x', rate: 1, keep_gross_if_rate_changes: 1 },
        { keep_gross_if_rate_changes: ['Must be a valid boolean.'] },
      ],
      [{ name: 'x', rate: 1, home_country: 'XX' }, { home_country: ['"XX" is not a valid choice.'] }],
      [{ name: 'x', rate: 1, home_country: 'de' }, { home_country: ['"de" is not a valid choice.'] }],
      [{ name: 'x', rate: 1, home_country: 'DEU' }, { home_country: ['"DEU" is not a valid choice.'] }],
      [
        { name: 'x', rate: 1, eu_reverse_charge: true },
        { home_country: ['You need to set your home country to use the reverse charge feature.'] },
      ],
      [
        { name: 'x', rate: 1, eu_reverse_charge: true, home_country: '' },
        { home_country: ['You need to set your home country to use the reverse charge feature.'] },
      ],
      ...['O', 'E', 'Z', 'G', 'K', 'AE'].map((code): [object, object] => [
        { name: 'x', rate: '0.01', code },
        { code: ['A combination of this tax code with a non-zero tax rate does not make sense.'] },
      ]),
      ...['S/standard', 'S/reduced', 'S/averaged', 'L', 'M', 'B'].map((code): [object, object] => [
        { name: 'x', rate: '0.00', code },
        { code: ['A combination of this tax code with a zero tax rate does not make sense.'] },
      ]),
      [
        { name: 'x', rate: 1, custom_rules: { country: 'DE' } },
        { custom_rules: [`${NOT_VALID}{"country":"DE"} is not of type 'array'`] },
      ],
      [
        { name: 'x', rate: 1, custom_rules: ['DE'] },
        { custom_rules: [`${NOT_VALID}'DE' is not of type 'object' (rule 1)`] },
      ],
      [
        { name: 'x', rate: 1, custom_rules: [{ address_type: '', action: 'vat' }] },
        { custom_rules: [`${NOT_VALID}'country' is a required property (rule 1)`] },
      ],
      [
        {
          name: 'x',
          rate: 1,
          custom_rules: [
            { country: 'DE', address_type: '', action: 'vat' },
            { country: 'DE', action: 'vat' },
          ],
        },
        { custom_rules: [`${NOT_VALID}'address_type' is a required property (rule 2)`] },
      ],
      [
        { name: 'x', rate: 1, custom_rules: [{ country: 'DE', address_type: '' }] },
        { custom_rules: [`${NOT_VALID}'action' is a required property (rule 1)`] },
      ],
      [
        { name: 'x', rate: 1, custom_rules: [{ country: 'XX', address_type: '', action: 'vat' }] },
        {
          custom_rules: [
            `${NOT_VALID}'XX' is not a valid country code, 'ZZ' (any country) or 'EU' (any EU country) (rule 1)`,
          ],
        },
      ],
      [
        { name: 'x', rate: 1, custom_rules: [{ country: 'DE', address_type: 'company', action: 'vat' }] },
        {
          custom_rules: [
            `${NOT_VALID}'company' is not one of ["","individual","business","business_vat_id"] (rule 1)`,
          ],
        },
      ],
      [
        { name: 'x', rate: 1, custom_rules: [{ country: 'DE', address_type: '', action: 'charge' }] },
        {
          custom_rules: [
            `${NOT_VALID}'charge' is not one of ["vat","reverse","no","block","require_approval"] (rule 1)`,
          ],
        },
      ],
      [
        { name: 'x', rate: 1, custom_rules: [{ country: 'DE', address_type: '', action: 'vat', rate: 7 }] },
        { custom_rules: [`${NOT_VALID}7 is not of type 'string', 'null' (rule 1)`] },
      ],
      [
        {
          name: 'x',
          rate: 1,
          custom_rules: [{ country: 'DE', address_type: '', action: 'vat', rate: '-7' }],
        },
        { custom_rules: [`${NOT_VALID}'-7' does not match '^[0-9]+(\\.[0-9]+)?$' (rule 1)`] },
      ],
      [
        {
          name: 'x',
          rate: 1,
          custom_rules: [{ country: 'DE', address_type: '', action: 'vat', rate: '7.123' }],
        },
        {
          custom_rules: [
            `${NOT_VALID}rate '7.123': Ensure that there are no more than 2 decimal places. (rule 1)`,
          ],
        },
      ],
      [
        {
          name: 'x',
          rate: 1,
          custom_rules: [{ country: 'DE', address_type: '', action: 'vat', invoice_text: 'text' }],
        },
        { custom_rules: [`${NOT_VALID}'text' is not of type 'object', 'null' (rule 1)`] },
      ],
      [
        {
          name: 'x',
          rate: 1,
          custom_rules: [{ country: 'DE', address_type: '', action: 'vat', invoice_text: { en: 1 } }],
        },
        {
          custom_rules: [
            `${NOT_VALID}invoice_text: Invalid i18n string: every value must be a string. (rule 1)`,
          ],
        },
      ],
      [
        { name: 'x', rate: 1, custom_rules: [{ country: 'DE', address_type: '', action: 'vat', code: 'S' }] },
        {
          custom_rules: [
            `${NOT_VALID}Additional properties are not allowed ('code' was unexpected) (rule 1)`,
          ],
        },
      ],
      [
        {
          name: 'x',
          rate: 1,
          custom_rules: [{ country: 'DE', address_type: '', action: 'vat', ORDER: 'a' }],
        },
        { custom_rules: [`${NOT_VALID}'a' is not of type 'number' (rule 1)`] },
      ],
    ])('answers 400 for %j and creates nothing', async (body, errors) => {
      const before = await ruleCount();
      const res = await post(`${E}/taxrules/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await ruleCount()).toBe(before);
    });

    it('collects field and cross-field errors together', async () => {
      const res = await post(`${E}/taxrules/`, {
        name: 'x',
        rate: '19.00',
        code: 'Z',
        eu_reverse_charge: true,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        home_country: ['You need to set your home country to use the reverse charge feature.'],
        code: ['A combination of this tax code with a non-zero tax rate does not make sense.'],
      });
    });
  });

  describe('list', () => {
    let base: string;
    let ids: number[];

    beforeAll(async () => {
      base = await freshEvent();
      ids = [];
      for (const rate of ['19.00', '7.00', '0.00']) ids.push((await createRule({ rate }, base)).id);
    });

    it('lists the rules of the event in id order', async () => {
      const res = await get(`${base}/taxrules/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 3,
        next: null,
        previous: null,
        results: [
          { ...DEFAULT_RULE, id: ids[0], default: true },
          { ...DEFAULT_RULE, id: ids[1], rate: '7.00' },
          { ...DEFAULT_RULE, id: ids[2], rate: '0.00' },
        ],
      });
    });

    it.each([
      ['ordering=-id', [2, 1, 0]],
      ['ordering=id', [0, 1, 2]],
      ['ordering=rate', [0, 1, 2]],
    ])('orders by %s', async (query, order) => {
      const res = await get(`${base}/taxrules/?${query}`);
      expect(res.body.results.map((r: RuleBody) => r.id)).toEqual(order.map((i) => ids[i]));
    });

    it('paginates', async () => {
      const res = await get(`${base}/taxrules/?page_size=2&page=2`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.results.map((r: RuleBody) => r.id)).toEqual([ids[2]]);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toMatch(/\/taxrules\/\?page_size=2$/);
      expect((await get(`${base}/taxrules/?page=3&page_size=2`)).status).toBe(404);
    });

    it('shows only rules of the event in the URL', async () => {
      const res = await get(`${OTHER}/taxrules/`);
      expect(res.status).toBe(200);
      for (const id of ids) expect(res.body.results.map((r: RuleBody) => r.id)).not.toContain(id);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${base}/taxrules/?${query}`));
      const one = await count('page_size=1');
      const two = await count('page_size=2');
      expect([one.rows, two.rows]).toEqual([1, 2]);
      expect(two.statements).toBe(one.statements);
    });

    it('answers 304 to If-Modified-Since when no rule changed since, and 200 after a change', async () => {
      const first = await get(`${base}/taxrules/`);
      const lastModified = first.headers['last-modified'];
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      const notModified = await get(`${base}/taxrules/`).set('If-Modified-Since', lastModified);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await patch(`${base}/taxrules/${ids[2]}/`, { internal_name: 'zero' })).status).toBe(200);
      const fresh = await get(`${base}/taxrules/`).set('If-Modified-Since', lastModified);
      expect(fresh.status).toBe(200);
      expect(Date.parse(fresh.headers['last-modified'])).toBeGreaterThan(Date.parse(lastModified));
    });
  });

  describe('update', () => {
    it('PATCH changes the rate and the custom rules, logs it, and a second GET shows the change', async () => {
      const rule = await createRule({});
      const customRules = [{ country: 'AT', address_type: 'business', action: 'vat', rate: '20.00' }];
      const res = await patch(`${E}/taxrules/${rule.id}/`, { rate: '20.5', custom_rules: customRules });
      expect(res.status).toBe(200);
      const expected = {
        ...rule,
        rate: '20.50',
        custom_rules: [{ ...customRules[0], invoice_text: null }],
      };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/taxrules/${rule.id}/`)).body).toEqual(expected);
      expect(await logActions(rule.id)).toEqual([
        'pretix.event.taxrule.added',
        'pretix.event.taxrule.changed',
      ]);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const rule = await createRule({
        name: { en: 'Same', de: 'Gleich' },
        custom_rules: FULL_INPUT.custom_rules,
      });
      const res = await patch(`${E}/taxrules/${rule.id}/`, {
        name: { de: 'Gleich', en: 'Same' },
        rate: 19,
        custom_rules: FULL_OUTPUT.custom_rules,
        default: rule.default,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(rule);
      expect(await logActions(rule.id)).toEqual(['pretix.event.taxrule.added']);
    });

    it('PATCH null on nullable fields clears them; null on required ones is refused', async () => {
      const rule = await createRule({
        internal_name: 'x',
        code: 'S/standard',
        custom_rules: [],
        home_country: 'AT',
      });
      const bad = await patch(`${E}/taxrules/${rule.id}/`, { name: null, rate: null, default: null });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        name: ['This field may not be null.'],
        rate: ['This field may not be null.'],
        default: ['This field may not be null.'],
      });
      const ok = await patch(`${E}/taxrules/${rule.id}/`, {
        internal_name: null,
        code: null,
        custom_rules: null,
        home_country: null,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({
        ...rule,
        internal_name: null,
        code: null,
        custom_rules: null,
        home_country: '',
      });
    });

    it('checks the rules on the merged data', async () => {
      const rule = await createRule({ code: 'S/standard', home_country: 'DE' });
      const url = `${E}/taxrules/${rule.id}/`;
      for (const [body, errors] of [
        [
          { rate: '0' },
          { code: ['A combination of this tax code with a zero tax rate does not make sense.'] },
        ],
        [
          { code: 'Z' },
          { code: ['A combination of this tax code with a non-zero tax rate does not make sense.'] },
        ],
        [
          { home_country: '', eu_reverse_charge: true },
          { home_country: ['You need to set your home country to use the reverse charge feature.'] },
        ],
      ] as const) {
        const res = await patch(url, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
      }
      expect((await get(url)).body).toEqual(rule);
      const ok = await patch(url, { eu_reverse_charge: true });
      expect(ok.status).toBe(200);
      expect([ok.body.eu_reverse_charge, ok.body.home_country]).toEqual([true, 'DE']);
      const zero = await patch(url, { rate: '0', code: 'E' });
      expect(zero.status).toBe(200);
      expect([zero.body.rate, zero.body.code]).toEqual(['0.00', 'E']);
    });

    it('moves the default with default: true, and refuses default: false on the default rule', async () => {
      const base = await freshEvent();
      const first = await createRule({}, base);
      const second = await createRule({ rate: '7' }, base);
      const refused = await patch(`${base}/taxrules/${first.id}/`, { default: false, rate: '20' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        default: ["You can't remove the default property, instead set it on another tax rule."],
      });
      expect((await get(`${base}/taxrules/${first.id}/`)).body).toEqual(first);

      const moved = await patch(`${base}/taxrules/${second.id}/`, { default: true });
      expect(moved.status).toBe(200);
      expect(moved.body).toEqual({ ...second, default: true });
      expect(await defaults(base)).toEqual([second.id]);
      const still = await patch(`${base}/taxrules/${first.id}/`, { default: false });
      expect(still.status).toBe(200);
      expect(still.body.default).toBe(false);
    });

    it('PUT resets omitted fields to their defaults and keeps the default property', async () => {
      const base = await freshEvent();
      const created = await post(`${base}/taxrules/`, FULL_INPUT);
      expect(created.status).toBe(201);
      expect(created.body.default).toBe(true);
      const res = await put(`${base}/taxrules/${created.body.id}/`, { name: { en: 'VAT' }, rate: '19.00' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULT_RULE, id: created.body.id, default: true });
      expect((await get(`${base}/taxrules/${created.body.id}/`)).body).toEqual(res.body);
      expect(await logActions(created.body.id)).toEqual([
        'pretix.event.taxrule.added',
        'pretix.event.taxrule.changed',
      ]);
      const other = await createRule({ rate: '7' }, base);
      const moved = await put(`${base}/taxrules/${other.id}/`, { name: 'Reduced', rate: '7', default: true });
      expect(moved.status).toBe(200);
      expect(await defaults(base)).toEqual([other.id]);
    });

    it('PUT requires name and rate', async () => {
      const rule = await createRule({});
      const res = await put(`${E}/taxrules/${rule.id}/`, { code: 'S/standard' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: ['This field is required.'], rate: ['This field is required.'] });
      expect((await get(`${E}/taxrules/${rule.id}/`)).body).toEqual(rule);
    });
  });

  describe('delete', () => {
    it('deletes an unused rule and logs it', async () => {
      const base = await freshEvent();
      await createRule({}, base);
      const rule = await createRule({ rate: '7' }, base);
      const res = await del(`${base}/taxrules/${rule.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const gone = await get(`${base}/taxrules/${rule.id}/`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ detail: 'Not found.' });
      expect(await logActions(rule.id)).toEqual([
        'pretix.event.taxrule.added',
        'pretix.event.taxrule.deleted',
      ]);
      expect((await del(`${base}/taxrules/${rule.id}/`)).status).toBe(404);
    });

    it('refuses to delete the default rule while other rules exist, and deletes it when it is the last', async () => {
      const base = await freshEvent();
      const first = await createRule({}, base);
      const second = await createRule({ rate: '7' }, base);
      const refused = await del(`${base}/taxrules/${first.id}/`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(IN_USE);
      expect((await get(`${base}/taxrules/${first.id}/`)).body).toEqual(first);
      expect((await del(`${base}/taxrules/${second.id}/`)).status).toBe(204);
      expect((await del(`${base}/taxrules/${first.id}/`)).status).toBe(204);
      expect((await get(`${base}/taxrules/`)).body.count).toBe(0);
      expect(await logActions(first.id)).toEqual([
        'pretix.event.taxrule.added',
        'pretix.event.taxrule.deleted',
      ]);
    });

    it('refuses to delete a rule used by an item, and deletes it once the item is gone', async () => {
      const base = await freshEvent();
      await createRule({}, base);
      const rule = await createRule({ rate: '7' }, base);
      const item = await itemUsing(base, rule.id);
      const refused = await del(`${base}/taxrules/${rule.id}/`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(IN_USE);
      expect((await get(`${base}/taxrules/${rule.id}/`)).body).toEqual(rule);
      expect(await logActions(rule.id)).toEqual(['pretix.event.taxrule.added']);
      expect((await del(`${base}/items/${item}/`)).status).toBe(204);
      expect((await del(`${base}/taxrules/${rule.id}/`)).status).toBe(204);
    });
  });

  describe('concurrency', () => {
    it('parallel creations on a new event leave exactly one default rule', async () => {
      const base = await freshEvent();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(`${base}/taxrules/`, { name: `R${i}`, rate: i })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(results.filter((r) => r.body.default)).toHaveLength(1);
      expect(await defaults(base)).toHaveLength(1);
    });

    it('parallel moves of the default leave exactly one default rule', async () => {
      const base = await freshEvent();
      const rules: RuleBody[] = [];
      for (let i = 0; i < 6; i++) rules.push(await createRule({ rate: i + 1 }, base));
      const results = await Promise.all(
        rules.map((r) => patch(`${base}/taxrules/${r.id}/`, { default: true })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(await defaults(base)).toHaveLength(1);
    });
  });

  describe('scoping', () => {
    let foreign: RuleBody;

    beforeAll(async () => {
      foreign = await createRule({ name: 'Foreign' }, OTHER);
    });

    it.each(['get', 'patch', 'put', 'delete'] as const)(
      '%s of a rule of another event answers 404',
      async (method) => {
        const url = `${E}/taxrules/${foreign.id}/`;
        const res =
          method === 'get'
            ? await get(url)
            : method === 'delete'
              ? await del(url)
              : method === 'patch'
                ? await patch(url, { name: 'hijack' })
                : await put(url, { name: 'hijack', rate: 1 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
        expect((await get(`${OTHER}/taxrules/${foreign.id}/`)).body).toEqual(foreign);
      },
    );

    it.each(['abc', '1.5', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
      const res = await get(`${E}/taxrules/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
      expect((await patch(`${E}/taxrules/${id}/`, { rate: 1 })).status).toBe(404);
      expect((await put(`${E}/taxrules/${id}/`, { name: 'x', rate: 1 })).status).toBe(404);
      expect((await del(`${E}/taxrules/${id}/`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let rule: RuleBody;

    beforeAll(async () => {
      rule = await createRule({ name: 'Perm', rate: '5' });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${E}/taxrules/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().get(`${E}/taxrules/${rule.id}/`)).status).toBe(401);
      expect((await t.http().post(`${E}/taxrules/`).send({ name: 'x', rate: 1 })).status).toBe(401);
      expect((await t.http().patch(`${E}/taxrules/${rule.id}/`).send({ rate: 1 })).status).toBe(401);
      expect((await t.http().delete(`${E}/taxrules/${rule.id}/`)).status).toBe(401);
    });

    it('lets a team with event access but without event.settings.tax:write read', async () => {
      const list = await get(`${E}/taxrules/`, reader);
      expect(list.status).toBe(200);
      expect(list.body.results.map((r: RuleBody) => r.id)).toContain(rule.id);
      const detail = await get(`${E}/taxrules/${rule.id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(rule);
    });

    it('answers 403 to every write without event.settings.tax:write, changing nothing', async () => {
      const before = await ruleCount();
      const url = `${E}/taxrules/${rule.id}/`;
      for (const res of [
        await post(`${E}/taxrules/`, { name: 'x', rate: 1 }, reader),
        await patch(url, { rate: 1 }, reader),
        await put(url, { name: 'x', rate: 1 }, reader),
        await del(url, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(rule);
      expect(await ruleCount()).toBe(before);
    });

    it('lets a team with only event.settings.tax:write write', async () => {
      const created = await post(`${E}/taxrules/`, { name: 'Tax team', rate: 3 }, taxWriter);
      expect(created.status).toBe(201);
      const url = `${E}/taxrules/${created.body.id}/`;
      expect((await patch(url, { rate: 4 }, taxWriter)).status).toBe(200);
      expect((await put(url, { name: 'Tax team', rate: 5 }, taxWriter)).status).toBe(200);
      expect((await del(url, taxWriter)).status).toBe(204);
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      for (const res of [
        await get(`${E}/taxrules/`, outsider),
        await get(`${E}/taxrules/${rule.id}/`, outsider),
        await post(`${E}/taxrules/`, { name: 'x', rate: 1 }, outsider),
        await patch(`${E}/taxrules/${rule.id}/`, { rate: 1 }, outsider),
        await put(`${E}/taxrules/${rule.id}/`, { name: 'x', rate: 1 }, outsider),
        await del(`${E}/taxrules/${rule.id}/`, outsider),
        await get('/api/v1/organizers/nope/events/sample/taxrules/'),
        await get(`${ORG}/nope/taxrules/`),
        await post(`${ORG}/nope/taxrules/`, { name: 'x', rate: 1 }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${E}/taxrules/${rule.id}/`)).body).toEqual(rule);
    });
  });
});
