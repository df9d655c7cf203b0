import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `O/checkinrpc/redeem_batch/` (README "Batch redeem"): one result per scan in order, each what the single
 * `checkinrpc/redeem/` answers for the same case (compared on twin tickets), invalid scans answered alone, the
 * 1,000 limit, nonces idempotent across retries and parallel batches, and offline double entries (the earlier-dated
 * forced entry wins, in both upload orders, visible in `E/checkins/`).
 */
describe('check-in batch redeem', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/fest`;
  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const batch = (scans: unknown) => post(`${O}/checkinrpc/redeem_batch/`, { scans });
  let item: number;
  let other: number;
  let list: number;
  let vip: number;
  let age: number;

  const order = async (
    status = 'p',
    product = item,
  ): Promise<{ code: string; secret: string; id: number }> => {
    const res = await post(`${E}/orders/`, { status, positions: [{ item: product }] });
    expect(res.status).toBe(201);
    return { code: res.body.code, secret: res.body.positions[0].secret, id: res.body.positions[0].id };
  };

  /** What may differ between twin tickets (their ids, codes, secrets, times). */
  const MASKED = new Set([
    'id',
    'order',
    'secret',
    'pseudonymization_id',
    'datetime',
    'positionid',
    'created',
    'url',
  ]);
  const mask = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(mask);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, MASKED.has(k) ? typeof v : mask(v)]));
  };

  const checkinCount = async (positionIds: number[], successful = true): Promise<number> => {
    const rows: { n: number }[] = await t.db.query(
      'SELECT count(*)::int AS n FROM checkin WHERE position_id = ANY($1) AND successful = $2',
      [positionIds, successful],
    );
    return rows[0].n;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'fest' });
    item = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    other = (await post(`${E}/items/`, { name: 'Parking', default_price: '5.00' })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 5000, items: [item, other] });
    vip = (await post(`${E}/items/`, { name: 'VIP', default_price: '50.00' })).body.id;
    await post(`${E}/quotas/`, { name: 'QV', size: 100, items: [vip] });
    age = (
      await post(`${E}/questions/`, {
        question: { en: 'Age' },
        type: 'N',
        items: [vip],
        ask_during_checkin: true,
        position: 1,
      })
    ).body.id;
    list = (
      await post(`${E}/checkinlists/`, { name: 'Door', all_products: false, limit_products: [item, vip] })
    ).body.id;
  });
  afterAll(() => t.close());

  it('answers each scan in order exactly as the single redeem answers its twin', async () => {
    /** One case: builds its ticket and the scan (the same builder runs for both twins). */
    type Case = () => Promise<unknown>;
    const cases: Case[] = [
      async () => ({ lists: [list], secret: (await order()).secret }),
      async () => {
        const { secret } = await order();
        await post(`${O}/checkinrpc/redeem/`, { lists: [list], secret });
        return { lists: [list], secret };
      },
      async () => {
        const { secret, code } = await order();
        await post(`${E}/orders/${code}/mark_canceled/`, {});
        return { lists: [list], secret, canceled_supported: true };
      },
      async () => ({ lists: [list], secret: (await order('n')).secret }),
      async () => ({ lists: [list], secret: (await order('p', other)).secret }),
      async () => ({ lists: [list], secret: 'no-such-secret' }),
      async () => ({ lists: [list] }),
      async () => ['not', 'an object'],
      async () => ({ lists: [987654], secret: 'x' }),
      async () => ({ lists: [list], secret: (await order()).secret, type: 'exit' }),
      async () => {
        const { secret } = await order();
        await post(`${O}/checkinrpc/redeem/`, { lists: [list], secret });
        return { lists: [list], secret, force: true };
      },
      async () => {
        const { secret } = await order();
        const nonce = `n-${secret}`;
        await post(`${O}/checkinrpc/redeem/`, { lists: [list], secret, nonce });
        return { lists: [list], secret, nonce };
      },
      async () => ({ lists: [list], secret: (await order()).secret, datetime: 'yesterday' }),
      // Check-in questions: decided by the single redeem's own code inside the batch.
      async () => ({ lists: [list], secret: (await order('p', vip)).secret }),
      async () => ({ lists: [list], secret: (await order('p', vip)).secret, answers: { [age]: '42' } }),
      async () => ({ lists: [list], secret: (await order('p', vip)).secret, answers: { [age]: 'old' } }),
    ];
    const single: { status: number; body: unknown }[] = [];
    for (const build of cases) {
      const res = await post(`${O}/checkinrpc/redeem/`, await build());
      single.push({ status: res.status, body: res.body });
    }
    const scans: unknown[] = [];
    for (const build of cases) scans.push(await build());
    const res = await batch(scans);
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(cases.length);
    expect(single.map((s) => s.status)).toEqual([
      201, 400, 400, 400, 400, 404, 400, 400, 403, 201, 201, 201, 400, 400, 201, 400,
    ]);
    res.body.results.forEach((result: Record<string, unknown>, i: number) => {
      const { status_code, ...body } = result;
      expect({ i, status: status_code }).toEqual({ i, status: single[i].status });
      const expected = Array.isArray(single[i].body) ? { non_field_errors: single[i].body } : single[i].body;
      expect({ i, body: mask(body) }).toEqual({ i, body: mask(expected) });
    });
    // State: the admitted ones are stored, each once.
    const first = scans[0] as { secret: string };
    const history = await get(`${E}/checkins/?list=${list}&successful=true`);
    expect(history.status).toBe(200);
    const admitted = res.body.results[0] as { position: { id: number; secret: string } };
    expect(admitted.position.secret).toBe(first.secret);
    expect(
      history.body.results.filter((c: { position: number }) => c.position === admitted.position.id),
    ).toHaveLength(1);
  });

  it('decides a ticket scanned twice in one batch one scan after the other', async () => {
    const { secret, id } = await order();
    const res = await batch([
      { lists: [list], secret, nonce: 'twice-1' },
      { lists: [list], secret, nonce: 'twice-2' },
      { lists: [list], secret, nonce: 'twice-1' },
    ]);
    expect(res.status).toBe(200);
    expect(
      res.body.results.map((r: { status_code: number; status: string }) => [r.status_code, r.status]),
    ).toEqual([
      [201, 'ok'],
      [400, 'error'],
      [201, 'ok'],
    ]);
    expect(res.body.results[1].reason).toBe('already_redeemed');
    expect(await checkinCount([id])).toBe(1);
    expect(await checkinCount([id], false)).toBe(1);
  });

  it('refuses a scans list that is not a list of 1..1000 items, and takes exactly 1000', async () => {
    const over = await batch(Array.from({ length: 1001 }, () => ({ lists: [list], secret: 'x' })));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ scans: ['Ensure this field has no more than 1000 elements.'] });
    expect((await batch([])).body).toEqual({ scans: ['This list may not be empty.'] });
    expect((await batch('x')).status).toBe(400);
    expect((await post(`${O}/checkinrpc/redeem_batch/`, {})).body).toEqual({
      scans: ['This field is required.'],
    });
    const { secret, id } = await order();
    const full = await batch([
      { lists: [list], secret },
      ...Array.from({ length: 999 }, (_, i) => ({ lists: [list], secret: `unknown-${i}` })),
    ]);
    expect(full.status).toBe(200);
    expect(full.body.results).toHaveLength(1000);
    expect(full.body.results[0].status_code).toBe(201);
    expect(full.body.results[999]).toMatchObject({ status_code: 404, reason: 'invalid' });
    expect(await checkinCount([id])).toBe(1);
  });

  it('is idempotent per nonce: retried batches, a scan uploaded singly before, two identical batches in parallel', async () => {
    const tickets = await Promise.all(Array.from({ length: 6 }, () => order()));
    const ids = tickets.map((x) => x.id);
    const scans = tickets.map((x, i) => ({ lists: [list], secret: x.secret, nonce: `idem-${i}` }));
    // The first scan was already uploaded on its own.
    expect((await post(`${O}/checkinrpc/redeem/`, scans[0])).status).toBe(201);
    const first = await batch(scans);
    expect(first.body.results.map((r: { status_code: number }) => r.status_code)).toEqual(Array(6).fill(201));
    const retry = await batch(scans);
    expect(retry.body.results.map((r: { status_code: number }) => r.status_code)).toEqual(Array(6).fill(201));
    expect(await checkinCount(ids)).toBe(6);

    const more = await Promise.all(Array.from({ length: 20 }, () => order()));
    const parallelScans = more.map((x, i) => ({ lists: [list], secret: x.secret, nonce: `par-${i}` }));
    const [a, b] = await Promise.all([batch(parallelScans), batch(parallelScans)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const r of [...a.body.results, ...b.body.results]) expect(r.status_code).toBe(201);
    expect(await checkinCount(more.map((x) => x.id))).toBe(20);
    expect(
      await checkinCount(
        more.map((x) => x.id),
        false,
      ),
    ).toBe(0);

    // Without nonces two parallel batches admit each ticket once: the other batch is told already_redeemed.
    const plain = await Promise.all(Array.from({ length: 10 }, () => order()));
    const plainScans = plain.map((x) => ({ lists: [list], secret: x.secret }));
    const [c, d] = await Promise.all([batch(plainScans), batch(plainScans)]);
    const codes = [...c.body.results, ...d.body.results].map((r: { status_code: number }) => r.status_code);
    expect(codes.filter((s) => s === 201)).toHaveLength(10);
    expect(codes.filter((s) => s === 400)).toHaveLength(10);
    expect(await checkinCount(plain.map((x) => x.id))).toBe(10);
  });

  describe('offline double entry', () => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const offline = (secret: string, minutesAgo: number, nonce: string) => ({
      lists: [list],
      secret,
      force: true,
      type: 'entry',
      datetime: at(minutesAgo),
      nonce,
    });
    const scansOf = async (position: number) =>
      (await get(`${E}/checkins/?list=${list}&ordering=-id`)).body.results
        .filter((c: { position: number }) => c.position === position)
        .reverse();

    it('keeps the earlier-dated entry when it is uploaded first; the later one fails with the conflict', async () => {
      const { secret, id } = await order();
      const early = await batch([offline(secret, 20, 'dev-a-1')]);
      const late = await batch([offline(secret, 10, 'dev-b-1')]);
      expect(early.body.results[0]).toMatchObject({ status_code: 201, status: 'ok' });
      expect(late.body.results[0]).toMatchObject({ status_code: 201, status: 'ok' });
      const [entry, lost] = await scansOf(id);
      expect(entry).toMatchObject({
        successful: true,
        type: 'entry',
        conflict: null,
        device_id: null,
        gate: null,
      });
      expect(lost).toMatchObject({
        successful: false,
        error_reason: 'already_redeemed',
        conflict: { device_id: null, gate: null, datetime: entry.datetime, checkin_id: entry.id },
      });
      expect(await checkinCount([id])).toBe(1);
      // A retry of the losing upload stores nothing new.
      expect((await batch([offline(secret, 10, 'dev-b-1')])).body.results[0].status_code).toBe(201);
      expect(await checkinCount([id], false)).toBe(1);
    });

    it('lets an earlier-dated upload arriving later take the entry over (single redeem and batch alike)', async () => {
      for (const send of [
        (scan: object) => post(`${O}/checkinrpc/redeem/`, scan),
        (scan: object) => batch([scan]).then((r) => ({ status: r.body.results[0].status_code as number })),
      ]) {
        const { secret, id } = await order();
        expect((await send(offline(secret, 10, `late-${id}`))).status).toBe(201);
        expect((await send(offline(secret, 30, `early-${id}`))).status).toBe(201);
        const [stored, entry] = await scansOf(id);
        expect(entry).toMatchObject({ successful: true, type: 'entry', conflict: null });
        expect(new Date(entry.datetime).getTime()).toBeLessThan(new Date(stored.datetime).getTime());
        expect(stored).toMatchObject({
          successful: false,
          error_reason: 'already_redeemed',
          conflict: { datetime: entry.datetime, checkin_id: entry.id, device_id: null, gate: null },
        });
        expect(await checkinCount([id])).toBe(1);
        // The order's position shows only the entry.
        const positions = (await get(`${E}/orderpositions/${id}/`)).body;
        expect(positions.checkins.map((c: { id: number }) => c.id)).toEqual([entry.id]);
      }
    });

    it('parallel offline uploads of one ticket leave exactly one entry', async () => {
      const { secret, id } = await order();
      const results = await Promise.all(
        [5, 25, 15, 35].map((ago, i) => batch([offline(secret, ago, `race-${i}`)])),
      );
      for (const r of results) expect(r.body.results[0].status_code).toBe(201);
      expect(await checkinCount([id])).toBe(1);
      const scans = await scansOf(id);
      const entry = scans.find((c: { successful: boolean }) => c.successful);
      expect(entry.datetime).toBe(scans.map((c: { datetime: string }) => c.datetime).sort()[0]);
      for (const c of scans.filter((x: { successful: boolean }) => !x.successful)) {
        expect(c.conflict.checkin_id).toBe(entry.id);
      }
    });

    it('admits forced online scans (no datetime) as pretix does, without bookkeeping', async () => {
      const { secret, id } = await order();
      await batch([{ lists: [list], secret }]);
      const res = await batch([{ lists: [list], secret, force: true }]);
      expect(res.body.results[0]).toMatchObject({ status_code: 201, status: 'ok' });
      expect(await checkinCount([id])).toBe(2);
    });
  });
});
