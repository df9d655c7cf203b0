import { Mirror, pullAll } from './change-feed-client';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/** A small deterministic pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The change feed's promise (issue 27 §1 "Done when"): a random sequence of 500 creates, updates and deletes across
 * resources (items, quotas, vouchers, categories, questions, orders, check-ins, gift cards), replayed from the feed
 * by a client that applies the entries in order (reading now and then while the writes go on), reproduces the final
 * state exactly: the same objects (deleted ones gone) with the data their detail GETs answer.
 */
describe('change feed replay', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/alpha`;
  const SEED = 2027;

  const send = (method: 'post' | 'patch' | 'delete' | 'get', path: string, body?: object) =>
    t.http()[method](path).set('Authorization', auth(token)).send(body);
  async function ok(method: 'post' | 'patch' | 'delete', path: string, body?: object) {
    const res = await send(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'alpha' });
  });
  afterAll(() => t.close());

  it('500 random writes replayed from the feed give the final state', async () => {
    const rnd = random(SEED);
    const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(rnd() * list.length)];
    const mirror = new Mirror();
    let cursor: string | null = null;
    const ticket = (await ok('post', `${E}/items/`, { name: 'Ticket', default_price: '10.00' })).id as number;
    const main = (await ok('post', `${E}/quotas/`, { name: 'Main', size: 100000, items: [ticket] }))
      .id as number;
    const list = (await ok('post', `${E}/checkinlists/`, { name: 'Door', all_products: true })).id as number;
    const live = {
      item: [ticket] as number[],
      quota: [main] as number[],
      voucher: [] as number[],
      category: [] as number[],
      question: [] as number[],
      order: [] as string[],
      giftcard: [] as number[],
    };
    const secrets = new Map<string, string[]>();
    const remove = <T>(arr: T[], v: T) => arr.splice(arr.indexOf(v), 1);
    const ops: (() => Promise<unknown>)[] = [
      async () =>
        live.item.push(
          (await ok('post', `${E}/items/`, { name: `I${rnd()}`, default_price: '3.00' })).id as number,
        ),
      async () => {
        const id = pick(live.item.filter((i) => i !== ticket));
        if (id) await ok('patch', `${E}/items/${id}/`, { default_price: `${Math.floor(rnd() * 90) + 1}.00` });
      },
      async () => {
        const id = pick(live.item.filter((i) => i !== ticket));
        if (id) {
          await ok('delete', `${E}/items/${id}/`);
          remove(live.item, id);
        }
      },
      async () =>
        live.quota.push((await ok('post', `${E}/quotas/`, { name: 'Q', size: 5, items: [] })).id as number),
      async () => {
        const id = pick(live.quota.filter((q) => q !== main));
        if (id) await ok('patch', `${E}/quotas/${id}/`, { size: Math.floor(rnd() * 50) });
      },
      async () => {
        const id = pick(live.quota.filter((q) => q !== main));
        if (id) {
          await ok('delete', `${E}/quotas/${id}/`);
          remove(live.quota, id);
        }
      },
      async () => live.voucher.push((await ok('post', `${E}/vouchers/`, { comment: 'v' })).id as number),
      async () => {
        const id = pick(live.voucher);
        if (id) await ok('patch', `${E}/vouchers/${id}/`, { max_usages: Math.floor(rnd() * 9) + 1 });
      },
      async () => {
        const id = pick(live.voucher);
        if (id) {
          await ok('delete', `${E}/vouchers/${id}/`);
          remove(live.voucher, id);
        }
      },
      async () => live.category.push((await ok('post', `${E}/categories/`, { name: 'C' })).id as number),
      async () => {
        const id = pick(live.category);
        if (id) await ok('patch', `${E}/categories/${id}/`, { position: Math.floor(rnd() * 9) });
      },
      async () => {
        const id = pick(live.category);
        if (id) {
          await ok('delete', `${E}/categories/${id}/`);
          remove(live.category, id);
        }
      },
      async () =>
        live.question.push(
          (await ok('post', `${E}/questions/`, { question: 'Q?', type: 'S', items: [ticket] })).id as number,
        ),
      async () => {
        const id = pick(live.question);
        if (id) await ok('patch', `${E}/questions/${id}/`, { required: rnd() < 0.5 });
      },
      async () => {
        const id = pick(live.question);
        if (id) {
          await ok('delete', `${E}/questions/${id}/`);
          remove(live.question, id);
        }
      },
      async () => {
        const order = await ok('post', `${E}/orders/`, {
          email: 'buyer@example.org',
          testmode: true,
          status: 'p',
          positions: [{ item: ticket }, { item: ticket }],
        });
        live.order.push(order.code as string);
        secrets.set(
          order.code as string,
          (order.positions as { secret: string }[]).map((p) => p.secret),
        );
      },
      async () => {
        const code = pick(live.order);
        if (code) await ok('patch', `${E}/orders/${code}/`, { comment: `c${rnd()}` });
      },
      async () => {
        const code = pick(live.order);
        // Rarer than the other writes, so that check-ins accumulate.
        if (code && rnd() < 0.25) {
          await ok('delete', `${E}/orders/${code}/`);
          remove(live.order, code);
        }
      },
      async () => {
        const code = pick(live.order);
        const secret = code && pick(secrets.get(code)!);
        // A repeated scan is refused and stored as a failed check-in: a change too.
        if (secret) await send('post', `${E}/checkinlists/${list}/positions/${secret}/redeem/`, {});
      },
      async () =>
        live.giftcard.push(
          (await ok('post', `${O}/giftcards/`, { currency: 'EUR', value: '10.00' })).id as number,
        ),
      async () => {
        const id = pick(live.giftcard);
        if (id) await ok('patch', `${O}/giftcards/${id}/`, { conditions: `c${rnd()}` });
      },
      async () => {
        const id = pick(live.giftcard);
        if (id) await ok('post', `${O}/giftcards/${id}/transact/`, { value: '1.00' });
      },
    ];
    for (let i = 0; i < 500; i++) {
      await pick(ops)!();
      if (i % 97 === 96) {
        const page = await pullAll(t, token, 'org', cursor);
        mirror.apply(page.changes);
        cursor = page.cursor;
      }
    }
    const last = await pullAll(t, token, 'org', cursor);
    mirror.apply(last.changes);

    const detail = async (path: string) => (await send('get', path)).body as Record<string, unknown>;
    for (const [resource, path] of [
      ['item', `${E}/items/`],
      ['quota', `${E}/quotas/`],
      ['voucher', `${E}/vouchers/`],
      ['category', `${E}/categories/`],
      ['question', `${E}/questions/`],
      ['giftcard', `${O}/giftcards/`],
    ] as const) {
      const mirrored = mirror.of(resource);
      expect([...mirrored.keys()].sort()).toEqual([...live[resource]].sort());
      for (const [id, data] of mirrored) expect(data).toEqual(await detail(`${path}${id}/`));
    }
    const orders = mirror.of('order');
    expect([...orders.keys()].sort()).toEqual([...live.order].sort());
    for (const [code, data] of orders) expect(data).toEqual(await detail(`${E}/orders/${code}/`));
    const checkins = mirror.of('checkin');
    const stored: { id: number }[] = await t.db.query('SELECT id FROM checkin ORDER BY id');
    expect([...checkins.keys()].sort()).toEqual(stored.map((c) => c.id).sort());
    for (const [id, data] of checkins) expect(data).toEqual(await detail(`${E}/checkins/${id}/`));
    expect(stored.length).toBeGreaterThan(5);
    expect(live.order.length + live.item.length + live.giftcard.length).toBeGreaterThan(10);
  }, 240_000);
});
