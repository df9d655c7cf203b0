import { readFileSync } from 'fs';
import { join } from 'path';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The README's "Not implemented" table (inputs accepted but ignored) says which response fields have a
 * fixed value: each row is checked against a real response, so a field that gets implemented (or a new fixed one
 * documented wrongly) fails here until the README says so.
 */
describe('README "Not implemented": fixed response fields', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const samples: Record<string, Record<string, unknown>> = {};

  const post = async (path: string, body: object): Promise<Record<string, unknown>> => {
    const res = await t.http().post(path).set('Authorization', auth(token)).send(body);
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  };
  const get = async (path: string): Promise<Record<string, unknown>> =>
    (await t.http().get(path).set('Authorization', auth(token))).body as Record<string, unknown>;

  /** `| resource | field | value | missing feature |` rows of the README section. */
  function rows(): { resources: string[]; fields: string[]; values: string[] }[] {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Not implemented'));
    // Up to the next heading (`## ` or `### `): later sections have tables of their own.
    const end = section.slice(1).search(/\n##+ /);
    const table = section.slice(0, end >= 0 ? end + 1 : undefined);
    return table
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| resource') && !l.startsWith('|---'))
      .map((l) => {
        const [resource, field, value] = l
          .split('|')
          .slice(1, 4)
          .map((c) => c.trim().replace(/`/g, ''));
        return {
          resources: resource.split(', '),
          fields: field.split(', '),
          values: value.split(', '),
        };
      });
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    const item = await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' });
    const quota = await post(`${E}/quotas/`, { name: 'Q', size: 10, items: [item.id] });
    const order = await post(`${E}/orders/`, {
      email: 'a@example.org',
      status: 'p',
      positions: [{ item: item.id }],
    });
    const card = await post(`${O}/giftcards/`, { currency: 'EUR', value: '5.00' });
    samples.order = await get(`${E}/orders/${order.code as string}/`);
    samples['order position'] = (samples.order.positions as Record<string, unknown>[])[0];
    samples['order payment'] = (samples.order.payments as Record<string, unknown>[])[0];
    samples['quota availability'] = await get(`${E}/quotas/${quota.id as number}/availability/`);
    samples.item = await get(`${E}/items/${item.id as number}/`);
    samples['reusable medium'] = await post(`${O}/reusablemedia/`, { type: 'barcode', identifier: 'M1' });
    samples['gift card transaction'] = (
      (await get(`${O}/giftcards/${card.id as number}/transactions/`)).results as Record<string, unknown>[]
    )[0];
  });
  afterAll(() => t.close());

  it('lists rows, each naming resources this test knows', () => {
    const table = rows();
    // The table was parsed (it shrinks as features land: print logs, ticket blocking, customers and the waiting list left it).
    expect(table.length).toBeGreaterThanOrEqual(3);
    const fields = table.flatMap((r) => r.fields);
    expect(fields).toEqual(expect.arrayContaining(['url', 'plugin_data']));
    expect(table.flatMap((r) => r.resources).filter((r) => !(r in samples))).toEqual([]);
  });

  it('each listed field has the listed value in a real response', () => {
    const found: string[] = [];
    const expected: string[] = [];
    for (const row of rows()) {
      for (const resource of row.resources) {
        row.fields.forEach((field, i) => {
          const value = row.values[Math.min(i, row.values.length - 1)];
          expected.push(`${resource}.${field} = ${value}`);
          found.push(`${resource}.${field} = ${JSON.stringify(samples[resource][field])}`);
        });
      }
    }
    expect(found).toEqual(expected);
  });
});
