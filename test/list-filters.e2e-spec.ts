import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Text filters of lists are bounded (README "API conventions", "Limits"):
 * a value longer than 200 characters answers 400 naming the parameter, on every list that filters by text.
 */
describe('list text filters', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    const item = await t
      .http()
      .post(`${E}/items/`)
      .set('Authorization', auth(token))
      .send({ name: 'Ticket', default_price: '10.00', variations: [{ value: 'Regular' }] });
    expect(item.status).toBe(201);
    const voucher = await t
      .http()
      .post(`${E}/vouchers/`)
      .set('Authorization', auth(token))
      .send({ code: 'SUMMER-2030', comment: 'x'.repeat(500) });
    expect(voucher.status).toBe(201);
    itemId = item.body.id as number;
  });
  let itemId: number;

  afterAll(() => t?.close());

  const tooLong = (param: string, length: number) => ({
    [param]: [`Ensure this value has at most 200 characters (it has ${length}).`],
  });

  it.each([
    ['vouchers/', 'search', 5000],
    ['vouchers/', 'tag', 201],
    ['vouchers/', 'code', 201],
    ['items/', 'search', 5000],
    ['orders/', 'email', 201],
    ['orders/', 'code', 201],
    ['orderpositions/', 'attendee_email', 201],
    ['questions/', 'identifier', 201],
  ])('%s?%s= longer than 200 characters answers 400 naming the parameter', async (path, param, length) => {
    const res = await get(`${E}/${path}?${param}=${'a'.repeat(length)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLong(param, length));
  });

  it('variation search is bounded too', async () => {
    const res = await get(`${E}/items/${itemId}/variations/?search=${'a'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooLong('search', 201));
  });

  it('accepts 200 characters, and still matches substrings literally', async () => {
    const long = await get(`${E}/vouchers/?search=${'x'.repeat(200)}`);
    expect(long.status).toBe(200);
    expect(long.body.count).toBe(1);
    const wildcard = await get(`${E}/vouchers/?search=${encodeURIComponent('SUMMER_2030')}`);
    expect(wildcard.body.count).toBe(0);
    const found = await get(`${E}/vouchers/?search=mer-20`);
    expect(found.body.count).toBe(1);
  });
});
