import { encodeDeltaCursor } from '../src/checkin/delta-cursor';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/** A delta page as the wire shows it. */
interface DeltaBody {
  count: number;
  previous: null;
  results: {
    id: number;
    secret: string;
    item: number;
    attendee_name: string | null;
    blocked: string[] | null;
    checkins: unknown[];
    answers: { answer: string }[];
  }[];
  removed: number[];
  revoked_secrets: string[];
  blocked_secrets: { secret: string; blocked: boolean }[];
  next: string | null;
  next_cursor: string;
}

/** A whole delta (all its pages merged) and the cursor of the next one. */
interface Drained {
  results: DeltaBody['results'];
  removed: number[];
  revoked: string[];
  blocked: { secret: string; blocked: boolean }[];
  pages: number;
  cursor: string;
}

/**
 * Delta sync for scanners (README "Delta sync for scanners"; issue 26): `GET …/checkinlists/{list}/positions/`
 * answers as before plus `X-Delta-Cursor`; `?changed_since=<cursor>` answers what changed since (position, order,
 * answers, scans on the list), what the list no longer shows, the secrets revoked or (un)blocked since, and the
 * next cursor, gap-free (a transaction committing late comes with the next call).
 */
describe('check-in list positions: delta sync', () => {
  // The watermark is the whole server's: a long transaction of another test database (a bulk load) delays
  // deltas here by design (see `settle`), so the steps may wait for it.
  jest.setTimeout(240_000);
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const patch = (path: string, body: object) =>
    t.http().patch(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  let ticket: number;
  let other: number;
  let question: number;
  let all: number;
  let side: number;
  let onlyTickets: number;

  const order = async (body: object = {}, item = ticket, count = 1) => {
    const res = await post(`${E}/orders/`, {
      status: 'p',
      positions: Array.from({ length: count }, () => ({ item })),
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as { code: string; positions: { id: number; secret: string }[] };
  };

  /**
   * Waits until every transaction that started before now has ended (the watermark passed them), so a delta asked
   * now hands out every change made so far: another test database of this cluster may hold a transaction open
   * for a moment, which holds the watermark back (by design; at most a minute here).
   */
  const settle = async () => {
    const [{ next }] = await t.db.query<{ next: string }[]>(
      'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next',
    );
    for (let i = 0; i < 1200; i++) {
      const [{ passed }] = await t.db.query<{ passed: boolean }[]>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint >= $1::bigint AS passed',
        [next],
      );
      if (passed) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the watermark did not pass');
  };

  /** The list's first page and the cursor it hands out. */
  const full = async (list: number, query = '') => {
    const res = await get(`${E}/checkinlists/${list}/positions/${query}`);
    expect(res.status).toBe(200);
    return {
      body: res.body as { count: number; results: { id: number }[] },
      cursor: res.headers['x-delta-cursor'],
    };
  };

  /** Reads a whole delta from `cursor` (following `next`), after {@link settle}. */
  const drain = async (list: number, cursor: string, query = ''): Promise<Drained> => {
    await settle();
    const out: Drained = { results: [], removed: [], revoked: [], blocked: [], pages: 0, cursor };
    let count = -1;
    let url: string | null =
      `${E}/checkinlists/${list}/positions/?changed_since=${encodeURIComponent(cursor)}${query}`;
    while (url !== null) {
      const res = await get(url.replace(/^https?:\/\/[^/]+/, ''));
      expect(res.status).toBe(200);
      const body = res.body as DeltaBody;
      expect(res.headers['x-delta-cursor']).toBe(body.next_cursor);
      expect(Object.keys(body).sort()).toEqual([
        'blocked_secrets',
        'count',
        'next',
        'next_cursor',
        'previous',
        'removed',
        'results',
        'revoked_secrets',
      ]);
      expect(body.previous).toBeNull();
      if (out.pages === 0) count = body.count;
      expect(body.count).toBe(count);
      out.results.push(...body.results);
      out.removed.push(...body.removed);
      out.revoked.push(...body.revoked_secrets);
      out.blocked.push(...body.blocked_secrets);
      out.pages += 1;
      out.cursor = body.next_cursor;
      url = body.next;
    }
    // `count`: the delta's changed positions, shown or removed, over all its pages.
    expect(count).toBe(out.results.length + out.removed.length);
    return out;
  };

  /** A fresh cursor of `list` from which later deltas start. */
  const start = async (list: number, filter = '') => {
    await settle();
    const { cursor } = await full(list, filter ? `?${filter}` : '');
    return (await drain(list, cursor, filter ? `&${filter}` : '')).cursor;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true })).body.id;
    other = (await post(`${E}/items/`, { name: 'Other', default_price: '5.00', admission: true })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [ticket, other] });
    question = (await post(`${E}/questions/`, { question: 'Company?', type: 'S', items: [ticket] })).body.id;
    all = (await post(`${E}/checkinlists/`, { name: 'All', all_products: true })).body.id;
    side = (await post(`${E}/checkinlists/`, { name: 'Side', all_products: true })).body.id;
    onlyTickets = (
      await post(`${E}/checkinlists/`, { name: 'Tickets', all_products: false, limit_products: [ticket] })
    ).body.id;
  });
  afterAll(() => t?.close());

  it('without changed_since: the list as before plus X-Delta-Cursor; a delta from it is empty until something changes', async () => {
    const o = await order();
    const { body, cursor } = await full(all);
    expect(Object.keys(body).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.results.map((p) => p.id)).toContain(o.positions[0].id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // The cursor was taken before the page was read: the order may come again, never less.
    const first = await drain(all, cursor);
    expect(first.results.map((p) => p.id).filter((id) => id !== o.positions[0].id)).toEqual([]);
    const again = await drain(all, first.cursor);
    expect(again).toMatchObject({ results: [], removed: [], revoked: [], blocked: [], pages: 1 });
    expect(again.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('each kind of change shows up in the delta, and only that', async () => {
    const a = await order({}, ticket, 2);
    const b = await order();
    const c = await order();
    const d = await order();
    const pending = await order({ status: 'n' });
    const [a1, a2] = a.positions.map((p) => p.id);
    let cursor = await start(all);
    const step = async (expected: { results?: number[]; removed?: number[] }) => {
      const got = await drain(all, cursor);
      expect(got.results.map((p) => p.id)).toEqual(expected.results ?? []);
      expect(got.removed).toEqual(expected.removed ?? []);
      cursor = got.cursor;
      return got;
    };

    // The position itself: attendee name.
    expect((await patch(`${E}/orderpositions/${a1}/`, { attendee_name: 'Ada Lovelace' })).status).toBe(200);
    expect((await step({ results: [a1] })).results[0].attendee_name).toBe('Ada Lovelace');
    // Its answers.
    const answered = await patch(`${E}/orderpositions/${a1}/`, { answers: [{ question, answer: 'ACME' }] });
    expect(answered.status).toBe(200);
    expect((await step({ results: [a1] })).results[0].answers.map((x) => x.answer)).toEqual(['ACME']);
    // Secret regenerated: the new secret in the position, the old one revoked.
    expect((await post(`${E}/orders/${b.code}/regenerate_secrets/`)).status).toBe(200);
    const regenerated = await step({ results: [b.positions[0].id] });
    expect(regenerated.results[0].secret).not.toBe(b.positions[0].secret);
    expect(regenerated.revoked).toEqual([b.positions[0].secret]);
    // Product changed.
    const changed = await post(`${E}/orders/${c.code}/change/`, {
      patch_positions: [{ position: c.positions[0].id, body: { item: other } }],
    });
    expect(changed.status).toBe(200);
    expect((await step({ results: [c.positions[0].id] })).results[0].item).toBe(other);
    // Order canceled: the list no longer shows it.
    expect((await post(`${E}/orders/${d.code}/mark_canceled/`)).status).toBe(200);
    await step({ removed: [d.positions[0].id] });
    // Order paid: the list shows it now.
    expect((await post(`${E}/orders/${pending.code}/mark_paid/`)).status).toBe(200);
    await step({ results: [pending.positions[0].id] });
    // Checked in on this list, then annulled.
    const redeemed = await post(`${E}/checkinlists/${all}/positions/${a2}/redeem/`, { nonce: 'delta-1' });
    expect(redeemed.status).toBe(201);
    expect((await step({ results: [a2] })).results[0].checkins).toHaveLength(1);
    const annulled = await post('/api/v1/organizers/org/checkinrpc/annul/', {
      lists: [all],
      nonce: 'delta-1',
    });
    expect(annulled.status).toBe(200);
    expect((await step({ results: [a2] })).results[0].checkins).toEqual([]);
    // A scan on another list is no change of this one.
    expect((await post(`${E}/checkinlists/${side}/positions/${a1}/redeem/`)).status).toBe(201);
    await step({});
    // Blocked: the position (with `blocked`) and the secret.
    expect((await post(`${E}/orderpositions/${a1}/add_block/`, { name: 'admin' })).status).toBe(200);
    const blocked = await step({ results: [a1] });
    expect(blocked.results[0].blocked).toEqual(['admin']);
    expect(blocked.blocked).toEqual([{ secret: a.positions[0].secret, blocked: true }]);
    expect((await post(`${E}/orderpositions/${a1}/remove_block/`, { name: 'admin' })).status).toBe(200);
    expect((await step({ results: [a1] })).blocked).toEqual([
      { secret: a.positions[0].secret, blocked: false },
    ]);
    // Nothing changed: nothing.
    expect(await step({})).toMatchObject({ revoked: [], blocked: [] });
    // The full list agrees with the mirror the deltas built.
    const listed = await get(`${E}/checkinlists/${all}/positions/?page_size=50&order=${a.code}`);
    expect(listed.body.results.find((p: { id: number }) => p.id === a1).attendee_name).toBe('Ada Lovelace');
  });

  it('cursor round trip: a delta of several pages follows next, secrets come once, then it is empty', async () => {
    const cursor = await start(all);
    const orders = [];
    for (let i = 0; i < 5; i++) orders.push(await order());
    expect((await post(`${E}/orders/${orders[0].code}/regenerate_secrets/`)).status).toBe(200);
    const got = await drain(all, cursor, '&page_size=2');
    expect(got.pages).toBe(3);
    expect(got.results.map((p) => p.id)).toEqual(orders.map((o) => o.positions[0].id));
    expect(got.revoked).toEqual([orders[0].positions[0].secret]);
    const next = await drain(all, got.cursor, '&page_size=2');
    expect(next).toMatchObject({ results: [], removed: [], revoked: [], pages: 1 });
    // A continuation cursor read twice gives the same page (it is a position in a fixed window).
    await settle();
    const first = await get(`${E}/checkinlists/${all}/positions/?changed_since=${cursor}&page_size=2`);
    const url = (first.body as DeltaBody).next as string;
    expect(url).toContain('changed_since=');
    const [p1, p2] = await Promise.all([
      get(url.replace(/^https?:\/\/[^/]+/, '')),
      get(url.replace(/^https?:\/\/[^/]+/, '')),
    ]);
    expect(p1.body.results.map((p: { id: number }) => p.id)).toEqual(
      orders.slice(2, 4).map((o) => o.positions[0].id),
    );
    expect(p2.body).toEqual(p1.body);
    expect(p1.body.revoked_secrets).toEqual([]);
  });

  it('a malformed cursor, or one of another list, is a 400 naming changed_since', async () => {
    const { cursor } = await full(all);
    const bad = [
      'not a cursor!',
      'AAAA',
      Buffer.from('d1.1.2.3').toString('base64url'),
      Buffer.from(`d1.${all}.01.5.0`).toString('base64url'),
      Buffer.from(`d1.${all}.99999999999999999999.5.0`).toString('base64url'),
      `${cursor}=`,
      encodeDeltaCursor({ list: side, lo: '5', hi: null, after: 0 }),
    ];
    for (const value of bad) {
      const res = await get(`${E}/checkinlists/${all}/positions/?changed_since=${encodeURIComponent(value)}`);
      expect({ value, status: res.status }).toEqual({ value, status: 400 });
      expect(Object.keys(res.body)).toEqual(['changed_since']);
      expect(res.body.changed_since).toEqual([expect.any(String)]);
    }
    // The list's own cursor is fine.
    expect((await get(`${E}/checkinlists/${all}/positions/?changed_since=${cursor}`)).status).toBe(200);
  });

  it('a transaction that commits late is delivered by the next delta, not skipped', async () => {
    const held = await order({}, other);
    const later = await order({}, ticket);
    const cursor = await start(all);
    const runner = t.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      // Takes its transaction id now (the smaller one) and commits after the other change below.
      await runner.query(
        `UPDATE order_position SET attendee_name_parts = '{"_legacy": "Late Writer"}' WHERE id = $1`,
        [held.positions[0].id],
      );
      expect(
        (await patch(`${E}/orderpositions/${later.positions[0].id}/`, { attendee_name: 'Early' })).status,
      ).toBe(200);
      // While the first transaction is open, nothing from it or after it is handed out.
      const during = await get(`${E}/checkinlists/${all}/positions/?changed_since=${cursor}`);
      expect(during.status).toBe(200);
      expect((during.body as DeltaBody).results.map((p) => p.id)).not.toContain(held.positions[0].id);
      expect((during.body as DeltaBody).results.map((p) => p.id)).not.toContain(later.positions[0].id);
      await runner.commitTransaction();
      const after = await drain(all, (during.body as DeltaBody).next_cursor);
      expect(after.results.map((p) => [p.id, p.attendee_name])).toEqual([
        [held.positions[0].id, 'Late Writer'],
        [later.positions[0].id, 'Early'],
      ]);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it("the list's other filters still apply: shown in results, the others in removed", async () => {
    const tk = await order({}, ticket);
    const ot = await order({}, other);
    const gone = await order({}, ticket);
    let byItem = await start(all, `item=${ticket}`);
    let limited = await start(onlyTickets);
    let anyStatus = await start(all, 'ignore_status=true');
    for (const o of [tk, ot]) {
      expect((await patch(`${E}/orderpositions/${o.positions[0].id}/`, { attendee_name: 'X' })).status).toBe(
        200,
      );
    }
    expect((await post(`${E}/orders/${gone.code}/mark_canceled/`)).status).toBe(200);
    const ids = (d: Drained) => [d.results.map((p) => p.id), d.removed];
    const items = await drain(all, byItem, `&item=${ticket}`);
    expect(ids(items)).toEqual([[tk.positions[0].id], [ot.positions[0].id, gone.positions[0].id]]);
    const products = await drain(onlyTickets, limited);
    expect(ids(products)).toEqual([[tk.positions[0].id], [ot.positions[0].id, gone.positions[0].id]]);
    const status = await drain(all, anyStatus, '&ignore_status=true');
    expect(ids(status)).toEqual([[tk.positions[0].id, ot.positions[0].id, gone.positions[0].id], []]);
    byItem = items.cursor;
    limited = products.cursor;
    anyStatus = status.cursor;
    expect((await drain(all, byItem, `&item=${ticket}`)).results).toEqual([]);
    expect((await drain(onlyTickets, limited)).results).toEqual([]);
    expect((await drain(all, anyStatus, '&ignore_status=true')).results).toEqual([]);
  });
});
