import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Newer item and variation fields (pretix 2024/2025): `hidden_if_item_available_mode`, `available_from_mode`,
 * `available_until_mode`, `all_sales_channels` + `limit_sales_channels`, on create, PATCH and PUT.
 */
describe('item newer fields', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';

  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const patch = (path: string, body: object) =>
    t.http().patch(path).set('Authorization', auth(token)).send(body);
  const put = (path: string, body: object) => t.http().put(path).set('Authorization', auth(token)).send(body);

  type Body = { id: number } & Record<string, unknown>;

  async function createItem(body: object = {}): Promise<Body> {
    const res = await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
  });
  afterAll(() => t.close());

  describe('items', () => {
    it('defaults the modes to hide and sells on all channels', async () => {
      const item = await createItem();
      expect(item).toMatchObject({
        available_from_mode: 'hide',
        available_until_mode: 'hide',
        hidden_if_item_available: null,
        hidden_if_item_available_mode: 'hide',
        all_sales_channels: true,
        limit_sales_channels: [],
        sales_channels: ['api', 'web'],
        program_times: [],
      });
    });

    it('writes the modes and channels on create, PATCH and PUT (omitted fields reset)', async () => {
      const cheap = await createItem({ name: 'Early bird' });
      const item = await createItem({
        available_from: '2030-01-01T00:00:00Z',
        available_from_mode: 'info',
        available_until: '2030-06-01T00:00:00Z',
        available_until_mode: 'info',
        hidden_if_item_available: cheap.id,
        hidden_if_item_available_mode: 'info',
        all_sales_channels: false,
        limit_sales_channels: ['web'],
      });
      expect(item).toMatchObject({
        available_from_mode: 'info',
        available_until_mode: 'info',
        hidden_if_item_available: cheap.id,
        hidden_if_item_available_mode: 'info',
        all_sales_channels: false,
        limit_sales_channels: ['web'],
        sales_channels: ['web'],
      });
      const url = `${E}/items/${item.id}/`;
      const patched = await patch(url, {
        hidden_if_item_available_mode: 'hide',
        available_until_mode: 'hide',
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        hidden_if_item_available_mode: 'hide',
        available_until_mode: 'hide',
        available_from_mode: 'info',
        limit_sales_channels: ['web'],
      });
      const stored: { hidden_if_item_available_mode: string }[] = await t.db.query(
        'SELECT hidden_if_item_available_mode FROM item WHERE id = $1',
        [item.id],
      );
      expect(stored[0].hidden_if_item_available_mode).toBe('hide');
      const info = await patch(url, { hidden_if_item_available_mode: 'info' });
      expect(info.body.hidden_if_item_available_mode).toBe('info');
      const replaced = await put(url, { name: 'Ticket', default_price: '10.00' });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({
        available_from_mode: 'hide',
        available_until_mode: 'hide',
        hidden_if_item_available: null,
        hidden_if_item_available_mode: 'hide',
        all_sales_channels: true,
        limit_sales_channels: [],
      });
      expect((await get(url)).body).toEqual(replaced.body);
    });

    it('refuses unknown modes and channels with DRF messages', async () => {
      const cases: [object, object][] = [
        [
          { hidden_if_item_available_mode: 'show' },
          { hidden_if_item_available_mode: ['"show" is not a valid choice.'] },
        ],
        [{ available_from_mode: 'show' }, { available_from_mode: ['"show" is not a valid choice.'] }],
        [{ available_until_mode: null }, { available_until_mode: ['This field may not be null.'] }],
        [
          { hidden_if_item_available_mode: null },
          { hidden_if_item_available_mode: ['This field may not be null.'] },
        ],
      ];
      for (const [body, errors] of cases) {
        const res = await post(`${E}/items/`, { name: 'X', default_price: 1, ...body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
      }
      const channel = await post(`${E}/items/`, {
        name: 'X',
        default_price: 1,
        limit_sales_channels: ['nope'],
      });
      expect(channel.status).toBe(400);
      expect(Object.keys(channel.body as object)).toEqual(['limit_sales_channels']);
    });

    it('lists the new fields on every item of the list', async () => {
      const list = await get(`${E}/items/?page_size=100`);
      expect(list.status).toBe(200);
      for (const item of list.body.results as Body[]) {
        expect(item).toHaveProperty('hidden_if_item_available_mode');
        expect(item).toHaveProperty('program_times');
        expect(item).toHaveProperty('all_sales_channels');
        expect(item).toHaveProperty('limit_sales_channels');
      }
    });
  });

  describe('variations', () => {
    it('carries the modes and channels, inline and on the nested endpoint', async () => {
      const item = await createItem({
        variations: [
          {
            value: 'S',
            available_from_mode: 'info',
            available_until_mode: 'info',
            all_sales_channels: false,
            limit_sales_channels: ['api'],
          },
        ],
      });
      const [inline] = item.variations as Body[];
      expect(inline).toMatchObject({
        available_from_mode: 'info',
        available_until_mode: 'info',
        all_sales_channels: false,
        limit_sales_channels: ['api'],
        sales_channels: ['api'],
      });
      const url = `${E}/items/${item.id}/variations/`;
      const created = await post(url, { value: 'M' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        available_from_mode: 'hide',
        available_until_mode: 'hide',
        all_sales_channels: true,
        limit_sales_channels: [],
      });
      const patched = await patch(`${url}${created.body.id}/`, {
        available_until_mode: 'info',
        all_sales_channels: false,
        limit_sales_channels: ['web'],
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        available_until_mode: 'info',
        all_sales_channels: false,
        limit_sales_channels: ['web'],
      });
      const bad = await patch(`${url}${created.body.id}/`, { available_from_mode: 'never' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ available_from_mode: ['"never" is not a valid choice.'] });
      expect((await get(`${url}${created.body.id}/`)).body).toEqual(patched.body);
    });
  });
});
