import { readFileSync } from 'fs';
import { MAX_JSON_DEPTH, TOO_DEEP_DETAIL } from '../src/common/http/body-parsing';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { ROUTE_TABLE_FILE, RouteTableRow } from './print-route-table';

/**
 * Bodies the parser refuses before anything else sees them (README "Limits"): JSON nested deeper than
 * {@link MAX_JSON_DEPTH} levels answers 400 on every write route (today depth 3,000 is a 500 on 54 of 56), and an
 * object key `constructor`/`__proto__`/`prototype` anywhere answers 400 naming it, with nothing written and no
 * prototype touched.
 */
describe('body limits', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';

  /**
   * Every write operation of the route table that takes JSON, with its path parameters filled in (the upload,
   * `/api/v1/upload`, reads any body as the file's raw bytes).
   */
  const writes = (JSON.parse(readFileSync(ROUTE_TABLE_FILE, 'utf8')) as RouteTableRow[])
    .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.path !== '/api/v1/upload')
    .map((r) => ({
      method: r.method.toLowerCase() as 'post' | 'put' | 'patch',
      path: r.path
        .replace(':organizer', 'org')
        .replace(':event', 'sample')
        .replace(/:[a-z_]+/g, '1'),
    }));

  const send = (method: 'post' | 'put' | 'patch', path: string, raw: string) =>
    t
      .http()
      [method](path)
      .set('Authorization', auth(token))
      .set('Content-Type', 'application/json')
      .send(raw);

  const nestedLists = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const nestedObjects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    const item = await t.http().post(`${E}/items/`).set('Authorization', auth(token)).send({
      name: 'Ticket',
      default_price: '10.00',
    });
    await t
      .http()
      .post(`${E}/quotas/`)
      .set('Authorization', auth(token))
      .send({ name: 'Q', size: 10, items: [(item.body as { id: number }).id] });
  });
  afterAll(() => t.close());

  it('covers the write operations of the route table', () => {
    expect(writes.length).toBeGreaterThanOrEqual(56);
  });

  it(`answers 400 on every write route for JSON nested 3,000 levels deep (lists and objects)`, async () => {
    const answers: string[] = [];
    for (const { method, path } of writes) {
      for (const raw of [nestedLists(3000), nestedObjects(3000), `{"positions": ${nestedLists(3000)}}`]) {
        const res = await send(method, path, raw);
        answers.push(`${method.toUpperCase()} ${path} ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    const expected = JSON.stringify({ detail: TOO_DEEP_DETAIL });
    expect(answers.filter((a) => !a.endsWith(` 400 ${expected}`))).toEqual([]);
  });

  it(`refuses depth ${MAX_JSON_DEPTH + 1} and lets depth ${MAX_JSON_DEPTH} through to validation`, async () => {
    expect(TOO_DEEP_DETAIL).toBe('JSON nested deeper than 32 levels.');
    for (const { method, path } of writes) {
      const over = await send(method, path, nestedObjects(MAX_JSON_DEPTH + 1));
      expect([path, over.status, over.body]).toEqual([path, 400, { detail: TOO_DEEP_DETAIL }]);
      const at = await send(method, path, nestedObjects(MAX_JSON_DEPTH));
      expect([path, at.body]).not.toEqual([path, { detail: TOO_DEEP_DETAIL }]);
      expect(at.status).toBeLessThan(500);
    }
    // Brackets inside strings are text, not nesting.
    const res = await send(
      'post',
      `${E}/categories/`,
      JSON.stringify({ name: '['.repeat(100) + '{'.repeat(100) }),
    );
    expect(res.status).toBe(201);
  });

  it('refuses prototype keys on vouchers/batch_create/ and cartpositions/bulk_create/ (400, nothing written)', async () => {
    const item = (await t.db.query<{ id: number }[]>('SELECT id FROM item LIMIT 1'))[0].id;
    const countRows = async () =>
      (
        await t.db.query<{ vouchers: number; carts: number; orders: number }[]>(
          `SELECT (SELECT count(*) FROM voucher)::int AS vouchers, (SELECT count(*) FROM cart_position)::int AS carts,
                  (SELECT count(*) FROM orders)::int AS orders`,
        )
      )[0];
    const before = await countRows();
    const cases: [string, string, string][] = [
      [
        `${E}/vouchers/batch_create/`,
        `[{"item": ${item}, "tag": {"constructor": {"prototype": {}}}}]`,
        'JSON object key "constructor" is not allowed (at [0].tag).',
      ],
      [
        `${E}/cartpositions/bulk_create/`,
        `[{"item": ${item}, "tag": {"constructor": {"prototype": {}}}}]`,
        'JSON object key "constructor" is not allowed (at [0].tag).',
      ],
      [
        `${E}/vouchers/batch_create/`,
        `[{"item": ${item}, "code": "ABCDEFGH", "tag": {"prototype": "x"}}]`,
        'JSON object key "prototype" is not allowed (at [0].tag).',
      ],
      [
        `${E}/orders/`,
        `{"email": "a@example.org", "positions": [{"item": ${item}, "attendee_name_parts": {"__proto__": {"admin": true}}}]}`,
        'JSON object key "__proto__" is not allowed (at positions[0].attendee_name_parts).',
      ],
      [
        `${E}/items/`,
        '{"name": "X", "default_price": "1.00", "constructor": 1}',
        'JSON object key "constructor" is not allowed.',
      ],
      [
        `${E}/quotas/`,
        '{"name": "Q", "size": 1, "meta": {"a": [{"__proto__": null}]}}',
        'JSON object key "__proto__" is not allowed (at meta.a[0]).',
      ],
    ];
    for (const [path, raw, detail] of cases) {
      const res = await send('post', path, raw);
      expect([path, res.status, res.body]).toEqual([path, 400, { detail }]);
    }
    expect(await countRows()).toEqual(before);
    const probe = {} as Record<string, unknown>;
    expect([probe.admin, probe.prototype, Object.keys(Object.prototype)]).toEqual([undefined, undefined, []]);
  });

  it('refuses a __proto__ key written in the raw JSON text', async () => {
    const res = await send('patch', `${E}/`, '{"name": {"en": "X"}, "__proto__": {"polluted": true}}');
    expect([res.status, res.body]).toEqual([400, { detail: 'JSON object key "__proto__" is not allowed.' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
