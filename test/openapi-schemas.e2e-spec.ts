import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { isUntyped, OpenApiSchema, resolveRef, Schemas, validate } from './openapi-schema-check';

/**
 * The component schemas of the served OpenAPI document are precise enough for generated SDKs (README "API
 * conventions"): no property is an empty schema or a shapeless object, ids and counts are integers, datetimes and
 * dates carry their format, money and multi-lingual strings reference the shared `Money`/`I18nString` schemas, and
 * real responses (an event, an item, an order, …) conform to the schemas their operations document.
 */

type Operation = {
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: OpenApiSchema }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Schemas } };

/** Properties that are answered or accepted as ISO 8601 datetimes. */
const DATE_TIMES = [
  'CartPositionJson.datetime',
  'CartPositionJson.expires',
  'CheckinJson.datetime',
  'CreateCartPositionDto.expires',
  'CreateDiscountDto.available_from',
  'CreateEventDto.date_from',
  'CreateEventDto.date_to',
  'CreateEventDto.date_admission',
  'CreateGiftCardDto.expires',
  'CreateItemDto.available_from',
  'CreateItemDto.validity_fixed_until',
  'CreateQuestionDto.valid_datetime_min',
  'CreateVoucherDto.valid_until',
  'DiscountJson.available_until',
  'EventJson.date_from',
  'EventJson.date_to',
  'EventJson.presale_start',
  'GiftCardJson.issuance',
  'GiftCardTransactionJson.datetime',
  'ItemJson.available_from',
  'OrderJson.datetime',
  'OrderJson.expires',
  'OrderJson.last_modified',
  'OrderPaymentJson.created',
  'OrderPositionInputDto.valid_from',
  'OrderPositionJson.valid_until',
  'OutgoingMailJson.created',
  'QuestionJson.valid_datetime_max',
  'ReusableMediumJson.updated',
  'UpdateEventDto.date_from',
  'UpdateVoucherDto.valid_until',
  'VariationJson.available_until',
  'VoucherJson.created',
  'VoucherJson.valid_until',
];

/** Properties that are dates (`YYYY-MM-DD`). */
const DATES = ['OrderJson.payment_date', 'OrderJson.custom_followup_at', 'QuestionJson.valid_date_min'];

/** Names that hold a point in time when they are strings; each such property must carry a format. */
const TEMPORAL_NAME =
  /^(datetime|created|updated|last_modified|expires|issuance|sent|next_attempt|payment_date|cancellation_date)$|(?<!^invoice|^invoice_address)_(from|until|at)$|^date_|^valid_(date|datetime)_|^presale_/;

/* `invoice_from`, `invoice_address_from`: the sender's street address (spec "Invoice"), not a point in time. */

/** Floating-point numbers; every other numeric property is an integer. */
const FLOATS = new Set(['geo_lat', 'geo_lon']);

describe('OpenAPI component schemas', () => {
  let t: TestApp;
  let doc: Document;
  let schemas: Schemas;
  let token: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;

  /** Every property of every component schema, as `Schema.property`. */
  const properties = (): [string, OpenApiSchema][] =>
    Object.entries(schemas).flatMap(([name, s]) =>
      Object.entries(s.properties ?? {}).map(([k, p]): [string, OpenApiSchema] => [`${name}.${k}`, p]),
    );
  const property = (path: string): OpenApiSchema => {
    const [name, key] = path.split('.');
    const p = schemas[name]?.properties?.[key];
    if (!p) throw new Error(`no property ${path}`);
    return p;
  };
  const refOf = (p: OpenApiSchema): string | undefined => (p.$ref ?? p.allOf?.[0]?.$ref)?.split('/').pop();

  /** The documented response schema of an operation (`{param}` paths as served). */
  const responseSchema = (path: string, method: string, status: string): OpenApiSchema => {
    const schema = doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`no ${status} schema for ${method.toUpperCase()} ${path}`);
    return schema;
  };
  const requestSchema = (path: string, method: string): OpenApiSchema => {
    const schema = doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`no body schema for ${method.toUpperCase()} ${path}`);
    return schema;
  };
  const post = async (path: string, body: object): Promise<Record<string, unknown>> => {
    const res = await t.http().post(path).set('Authorization', auth(token)).send(body);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  };
  const get = async (path: string): Promise<unknown> => {
    const res = await t.http().get(path).set('Authorization', auth(token));
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.http().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as Document;
    schemas = doc.components.schemas;
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
  });

  afterAll(async () => {
    await t.close();
  });

  describe('the document', () => {
    it('types every property: no empty schema, no shapeless object, no list of them', () => {
      const untyped = properties()
        .filter(([, p]) => isUntyped(p))
        .map(([path]) => path);
      expect(untyped).toEqual([]);
    });

    it('resolves every $ref', () => {
      const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
      const dangling = [...new Set(refs)].filter((r) => !schemas[JSON.parse(r).split('/').pop()]);
      expect(dangling).toEqual([]);
    });

    it('gives the known date-time properties `format: date-time` and dates `format: date`', () => {
      for (const path of DATE_TIMES) expect([path, property(path).format]).toEqual([path, 'date-time']);
      for (const path of DATES) expect([path, property(path).format]).toEqual([path, 'date']);
    });

    it('gives every string property named like a point in time a format', () => {
      const missing = properties()
        .filter(([path, p]) => p.type === 'string' && !p.enum && TEMPORAL_NAME.test(path.split('.')[1]))
        .filter(([, p]) => !['date-time', 'date', 'time'].includes(p.format ?? ''))
        .map(([path]) => path);
      expect(missing).toEqual([]);
    });

    it('types ids, counts and positions as integers (only coordinates are floats)', () => {
      const numbers = properties()
        .filter(
          ([path, p]) =>
            (p.type === 'number' || p.items?.type === 'number') && !FLOATS.has(path.split('.')[1]),
        )
        .map(([path]) => path);
      expect(numbers).toEqual([]);
      expect(property('ItemJson.id')).toMatchObject({ type: 'integer', format: 'int32' });
      expect(property('QuotaJson.items')).toMatchObject({ type: 'array', items: { type: 'integer' } });
    });

    it('defines the shared I18nString, Money and Percentage schemas and references them', () => {
      expect(schemas.I18nString).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
      expect(schemas.Money).toMatchObject({ type: 'string', format: 'decimal' });
      expect(new RegExp(schemas.Money.pattern!).test('23.00')).toBe(true);
      expect(new RegExp(schemas.Money.pattern!).test('23')).toBe(false);
      expect(refOf(property('ItemJson.name'))).toBe('I18nString');
      expect(refOf(property('ItemJson.default_price'))).toBe('Money');
      expect(refOf(property('ItemJson.tax_rate'))).toBe('Percentage');
      expect(refOf(property('CreateItemDto.name'))).toBe('I18nStringInput');
      expect(refOf(property('CreateItemDto.default_price'))).toBe('MoneyInput');
      expect(refOf(property('CreateTaxRuleDto.rate'))).toBe('PercentageInput');
      expect(property('EventJson.location')).toMatchObject({ nullable: true });
    });

    it('accepts on input what the validators accept: a plain string or an object, a number or a string', () => {
      const body = resolveRef(schemas, '#/components/schemas/CreateItemDto');
      expect(validate(schemas, body, { name: 'Ticket', default_price: 10 })).toEqual([]);
      expect(validate(schemas, body, { name: { en: 'Ticket' }, default_price: '10.5' })).toEqual([]);
      expect(validate(schemas, body, { name: 'Ticket', default_price: '10.555' })).not.toEqual([]);
      expect(validate(schemas, body, { default_price: '10.00' })).toEqual(['$.name: missing']);
      const position = resolveRef(schemas, '#/components/schemas/OrderPositionInputDto');
      expect(validate(schemas, position, { item: 1, voucher: 'ABCDE', price: null })).toEqual([]);
      expect(validate(schemas, position, { item: 1, voucher: 7 })).toEqual([]);
    });

    it('documents enums for fixed value sets', () => {
      expect(property('QuestionJson.type').enum).toEqual(
        expect.arrayContaining(['N', 'S', 'T', 'B', 'C', 'M', 'F', 'D', 'H', 'W', 'CC', 'TEL']),
      );
      expect(property('OrderJson.status').enum).toEqual(['n', 'p', 'e', 'c']);
      expect(property('CreateVoucherDto.price_mode').enum).toEqual(['none', 'set', 'subtract', 'percent']);
      expect(property('TaxRuleJson.code')).toMatchObject({ nullable: true });
      expect(property('ItemJson.available_from_mode').enum).toEqual(['hide', 'info']);
    });

    it('makes PATCH bodies partial and marks what create and PUT require', () => {
      expect(schemas.UpdateItemDto.required ?? []).toEqual([]);
      expect(schemas.UpdateEventDto.required ?? []).toEqual([]);
      expect([...schemas.CreateItemDto.required!].sort()).toEqual(['default_price', 'name']);
      expect([...schemas.ReplaceItemDto.required!].sort()).toEqual(['default_price', 'name']);
      expect(schemas.CreateOrderDto.required).toEqual(['positions']);
      expect(schemas.OrderPositionInputDto.required).toEqual(['item']);
    });

    it('references the schemas of nested lists', () => {
      expect(property('ItemJson.variations').items).toEqual({ $ref: '#/components/schemas/VariationJson' });
      expect(property('CreateItemDto.variations').items).toEqual({
        $ref: '#/components/schemas/CreateVariationDto',
      });
      expect(property('QuestionJson.options').items).toEqual({
        $ref: '#/components/schemas/QuestionOptionJson',
      });
      expect(property('OrderJson.positions').items).toEqual({
        $ref: '#/components/schemas/OrderPositionJson',
      });
    });
  });

  describe('live responses conform to their documented schemas', () => {
    const EVENT = '/api/v1/organizers/{organizer}/events/{event}/';
    let itemId: number;
    let orderCode: string;

    beforeAll(async () => {
      const rule = await post(`${E}/taxrules/`, { name: 'VAT', rate: 19 });
      const item = await post(`${E}/items/`, {
        name: 'Ticket',
        default_price: 23,
        tax_rule: rule.id,
        available_from: '2030-01-01T00:00:00Z',
        variations: [{ value: { en: 'Regular' }, default_price: '23.00' }],
      });
      itemId = item.id as number;
      const variation = (item.variations as { id: number }[])[0].id;
      await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [itemId], variations: [variation] });
      await post(`${E}/vouchers/`, {
        code: 'SCHEMA-1',
        price_mode: 'set',
        value: '10.00',
        valid_until: null,
      });
      const question = await post(`${E}/questions/`, {
        question: 'Size',
        type: 'C',
        items: [itemId],
        options: [{ answer: 'S' }, { answer: 'M' }],
      });
      const options = question.options as { id: number }[];
      const order = await post(`${E}/orders/`, {
        email: 'buyer@example.org',
        fees: [{ fee_type: 'service', value: 1.5 }],
        positions: [
          {
            item: itemId,
            variation,
            voucher: 'SCHEMA-1',
            answers: [{ question: question.id, options: [options[0].id] }],
          },
        ],
      });
      orderCode = order.code as string;
    });

    const check = async (path: string, documented: string, status = '200') => {
      const body = await get(path);
      expect(validate(schemas, responseSchema(documented, 'get', status), body)).toEqual([]);
      return body;
    };

    it('an event', async () => {
      await check(`${E}/`, EVENT);
    });

    it('an item with variations, and the item list', async () => {
      await check(`${E}/items/${itemId}/`, `${EVENT}items/{id}/`);
      await check(`${E}/items/`, `${EVENT}items/`);
    });

    it('an order with positions, fees, payments and answers, and the order list', async () => {
      const order = (await check(`${E}/orders/${orderCode}/`, `${EVENT}orders/{code}/`)) as {
        positions: unknown[];
      };
      expect(order.positions).toHaveLength(1);
      await check(`${E}/orders/`, `${EVENT}orders/`);
      // The checker does catch a wrong type, a bad format, a value outside an enum and an undocumented field.
      const schema = responseSchema(`${EVENT}orders/{code}/`, 'get', '200');
      const broken = { ...order, total: 23, datetime: 'yesterday', status: 'x', surprise: 1 };
      expect(validate(schemas, schema, broken)).toEqual([
        '$.status: "x" not in enum',
        '$.datetime: not a date-time: "yesterday"',
        '$.total: expected a string, got 23',
        '$.surprise: not documented',
      ]);
    });

    it('questions, quotas, vouchers and tax rules', async () => {
      await check(`${E}/questions/`, `${EVENT}questions/`);
      await check(`${E}/quotas/`, `${EVENT}quotas/`);
      await check(`${E}/vouchers/`, `${EVENT}vouchers/`);
      await check(`${E}/taxrules/`, `${EVENT}taxrules/`);
    });

    it('redeem answers (201 ok, 400 error and incomplete, 404 invalid) and an annulled scan', async () => {
      const redeemPath = `${EVENT}checkinlists/{list}/positions/{position}/redeem/`;
      const list = await post(`${E}/checkinlists/`, {
        name: 'Door',
        all_products: true,
        include_pending: true,
      });
      const order = (await get(`${E}/orders/${orderCode}/`)) as { positions: { secret: string }[] };
      const secret = order.positions[0].secret;
      const ask = await post(`${E}/questions/`, {
        question: 'Age',
        type: 'N',
        items: [itemId],
        ask_during_checkin: true,
      });
      const redeem = (body: object, who = secret) =>
        t
          .http()
          .post(`${E}/checkinlists/${String(list.id)}/positions/${who}/redeem/`)
          .set('Authorization', auth(token))
          .send(body);
      const answers: [object, string, number, string?][] = [
        [{}, secret, 400, 'error'], // pending order: unpaid
        [{ ignore_unpaid: true }, secret, 400, 'incomplete'],
        [{ ignore_unpaid: true, answers: { [String(ask.id)]: '30' }, nonce: 'schema-1' }, secret, 201, 'ok'],
        [{}, 'no-such-secret', 404, 'error'],
      ];
      for (const [body, who, status, kind] of answers) {
        const res = await redeem(body, who);
        expect([res.status, (res.body as { status: string }).status]).toEqual([status, kind]);
        expect(validate(schemas, responseSchema(redeemPath, 'post', String(status)), res.body)).toEqual([]);
      }
      const annul = await t
        .http()
        .post(`${ORG}/checkinrpc/annul/`)
        .set('Authorization', auth(token))
        .send({ lists: [list.id], nonce: 'schema-1' });
      expect(annul.status).toBe(200);
      const annulSchema = responseSchema('/api/v1/organizers/{organizer}/checkinrpc/annul/', 'post', '200');
      expect(validate(schemas, annulSchema, annul.body)).toEqual([]);
    });

    it('request bodies sent above conform to the documented request schemas', () => {
      const body = requestSchema(`${EVENT}orders/`, 'post');
      const sent = {
        positions: [{ item: 1, variation: 2, voucher: 'SCHEMA-1', answers: [{ question: 3 }] }],
      };
      expect(validate(schemas, body, sent)).toEqual([]);
      expect(
        validate(schemas, requestSchema(`${EVENT}taxrules/`, 'post'), { name: 'VAT', rate: 19 }),
      ).toEqual([]);
    });
  });
});
