import { CHECKIN_EVENTS, CheckinEvents } from '../src/checkin/checkin-events.port';
import { ExitAll } from '../src/checkin/exit-all';
import { AppConfig } from '../src/config/app-config';
import { ApiProcess, startApiProcess, stopAllApis } from './api-process';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { openSse, SseEvent, SseStream } from './sse-client';

/**
 * Live check-in stream of a list (README "Live check-in stream"; issue 26 "Live redemptions between gates"):
 * server-sent events of each successful check-in and annulment on the list, pushed through Redis to every
 * connected client of every API process, with `Last-Event-ID` resumption from PostgreSQL.
 */
describe('live check-in stream', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  let item: number;
  let listA: number;
  let listB: number;
  const O = '/api/v1/organizers/sse';
  const E = `${O}/events/conf`;
  const open: SseStream[] = [];

  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const listen = async (listId: number, headers: Record<string, string> = {}, query = '', tok = token) => {
    const s = await openSse(`${base}${E}/checkinlists/${listId}/stream/${query}`, {
      Authorization: auth(tok),
      ...headers,
    });
    open.push(s);
    return s;
  };
  /** A paid order with `n` tickets; their positions (id, secret) and the order code. */
  const order = async (n = 1, itemId = item) => {
    const res = await post(`${E}/orders/`, {
      status: 'p',
      positions: Array.from({ length: n }, () => ({ item: itemId })),
    });
    expect(res.status).toBe(201);
    return {
      code: res.body.code as string,
      positions: (res.body.positions as { id: number; secret: string }[]).map((p) => ({
        id: p.id,
        secret: p.secret,
      })),
    };
  };
  const redeem = async (listId: number, secret: string, body: object = {}) => {
    const res = await post(
      `${E}/checkinlists/${listId}/positions/${secret}/redeem/?untrusted_input=true`,
      body,
    );
    expect(res.status).toBe(201);
    return res;
  };
  const data = (e: SseEvent) => JSON.parse(e.data) as Record<string, unknown>;
  /** The scans of a list as `E/checkins/` shows them, newest first. */
  const scans = async (listId: number) =>
    (await t.http().get(`${E}/checkins/?list=${listId}&ordering=-id`).set('Authorization', auth(token))).body
      .results as { id: number; successful: boolean; error_reason: string | null; position: number }[];

  beforeAll(async () => {
    t = await startTestApp();
    await new Promise<void>((r) => t.app.getHttpServer().listen(0, '127.0.0.1', () => r()));
    const address = t.app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
    ({ token } = await bootstrapOrganizer(t, 'sse'));
    await createEvent(t, token, 'sse', { slug: 'conf' });
    item = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 500, items: [item] });
    listA = (
      await post(`${E}/checkinlists/`, { name: 'A', all_products: true, allow_multiple_entries: true })
    ).body.id;
    listB = (await post(`${E}/checkinlists/`, { name: 'B', all_products: true })).body.id;
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  afterAll(async () => {
    await stopAllApis();
    await t?.close();
  });

  it('pushes one check-in to both listeners of the list, with what a scanner needs', async () => {
    const [one, two] = [await listen(listA), await listen(listA)];
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(one.headers['cache-control']).toBe('no-store');
    const { code, positions } = await order();
    await redeem(listA, positions[0].secret);
    const [stored] = await scans(listA);
    for (const s of [one, two]) {
      const e = await s.waitFor((x) => x.event === 'checkin' && data(x).position === positions[0].id);
      expect(e.id).toBe(String(stored.id));
      expect(data(e)).toEqual({
        checkin: stored.id,
        list: listA,
        position: positions[0].id,
        secret: positions[0].secret,
        order: code,
        type: 'entry',
        datetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        forced: false,
        auto_checked_in: false,
        device_id: null,
        gate: null,
      });
    }
    // Exactly one event each (the check-in was pushed once).
    expect(one.events.filter((x) => x.event === 'checkin')).toHaveLength(1);
    expect(two.events.filter((x) => x.event === 'checkin')).toHaveLength(1);
  });

  it('pushes exits, forced scans and RPC redeems; an annulment names the annulled check-in', async () => {
    const s = await listen(listA);
    const { positions } = await order();
    const secret = positions[0].secret;
    const rpc = await post(`${O}/checkinrpc/redeem/`, { lists: [listA], secret, nonce: 'stream-n1' });
    expect(rpc.status).toBe(201);
    const entry = await s.waitFor((x) => x.event === 'checkin' && data(x).secret === secret);
    const annul = await post(`${O}/checkinrpc/annul/`, { lists: [listA], nonce: 'stream-n1' });
    expect(annul.status).toBe(200);
    const annulment = await s.waitFor((x) => x.event === 'annulment');
    expect(data(annulment)).toMatchObject({ checkin: Number(entry.id), list: listA, secret, type: 'entry' });
    expect(Number(annulment.id)).toBeGreaterThan(Number(entry.id));
    // The state: the scan is annulled.
    const row = (await scans(listA)).find((c) => c.id === Number(entry.id));
    expect(row).toMatchObject({ successful: false, error_reason: 'annulled' });
    await redeem(listA, secret, { type: 'exit' });
    await redeem(listA, secret, { force: true });
    await s.waitFor((x) => x.event === 'checkin' && data(x).secret === secret && data(x).type === 'exit');
    await s.waitFor((x) => x.event === 'checkin' && data(x).secret === secret && data(x).forced === true);
  });

  it('pushes automatic check-ins of a placed order (after the order commits)', async () => {
    const auto = (await post(`${E}/items/`, { name: 'Auto', default_price: '5.00' })).body.id;
    await post(`${E}/quotas/`, { name: 'QA', size: 10, items: [auto] });
    const rule = await post(`${E}/auto_checkin_rules/`, {
      mode: 'placed',
      list: listA,
      all_products: false,
      limit_products: [auto],
    });
    expect(rule.status).toBe(201);
    const s = await listen(listA);
    const { positions } = await order(1, auto);
    const e = await s.waitFor((x) => x.event === 'checkin' && data(x).position === positions[0].id);
    expect(data(e)).toMatchObject({ auto_checked_in: true, type: 'entry' });
  });

  it('pushes the automatic check-outs of exit_all_at (published by whichever process runs them)', async () => {
    const { positions } = await order();
    // Scanned (offline) before exit_all_at: the check-out applies to it.
    await redeem(listB, positions[0].secret, { datetime: new Date(Date.now() - 600_000).toISOString() });
    const s = await listen(listB);
    await t.db.query("UPDATE checkin_list SET exit_all_at = now() - interval '1 minute' WHERE id = $1", [
      listB,
    ]);
    const exits = await new ExitAll(t.db, t.app.get<CheckinEvents>(CHECKIN_EVENTS, { strict: false })).run();
    expect(exits).toBeGreaterThanOrEqual(1);
    const e = await s.waitFor((x) => data(x).secret === positions[0].secret);
    expect(data(e)).toMatchObject({ type: 'exit', auto_checked_in: true, list: listB });
  });

  it("does not push another list's check-ins", async () => {
    const s = await listen(listA);
    const { positions } = await order(2);
    await redeem(listB, positions[0].secret);
    await redeem(listA, positions[1].secret);
    // The list-A check-in came after the list-B one: had B's been pushed here, it would be here by now.
    await s.waitFor((x) => data(x).secret === positions[1].secret);
    expect(s.events.map((x) => data(x).list)).toEqual([listA]);
    expect(s.events.some((x) => data(x).secret === positions[0].secret)).toBe(false);
  });

  it('refuses a credential without the permission (403), an unknown list (404), a bad Last-Event-ID (400)', async () => {
    const vouchers = await teamToken(t, 'sse', {
      allEvents: true,
      eventPermissions: ['event.vouchers:read'],
    });
    const refused = await listen(listA, {}, '', vouchers);
    await refused.ended;
    expect(refused.status).toBe(403);
    const scanner = await teamToken(t, 'sse', {
      allEvents: true,
      eventPermissions: ['event.orders:checkin'],
    });
    const allowed = await listen(listA, {}, '', scanner);
    expect(allowed.status).toBe(200);
    const unknown = await listen(987654);
    await unknown.ended;
    expect(unknown.status).toBe(404);
    const bad = await listen(listA, { 'Last-Event-ID': 'abc' });
    await bad.ended;
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ last_event_id: ['A valid integer is required.'] });
  });

  it('streams to a device through its event.orders:read; a device without the event gets 403', async () => {
    const device = async (body: object) => {
      const created = await post(`${O}/devices/`, { name: 'Gate scanner', limit_events: [], ...body });
      expect(created.status).toBe(201);
      const init = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({
          token: (created.body as { initialization_token: string }).initialization_token,
          hardware_brand: 'Zebra',
          hardware_model: 'TC25',
          os_name: 'Android',
          os_version: '8.1.0',
          software_brand: 'pretixSCAN',
          software_version: '1.5.1',
        });
      expect(init.status).toBe(200);
      return `Device ${(init.body as { api_token: string }).api_token}`;
    };
    const scanner = await listen(listA, { Authorization: await device({ all_events: true }) });
    expect(scanner.status).toBe(200);
    const { positions } = await order();
    await redeem(listA, positions[0].secret);
    await scanner.waitFor((x) => data(x).secret === positions[0].secret);
    const elsewhere = await listen(listA, {
      Authorization: await device({ all_events: false, limit_events: [] }),
    });
    await elsewhere.ended;
    expect(elsewhere.status).toBe(403);
  });

  it('replays what a client missed after Last-Event-ID, then continues live, none twice', async () => {
    const first = await listen(listA);
    const { positions } = await order(4);
    await redeem(listA, positions[0].secret);
    const seen = await first.waitFor((x) => data(x).secret === positions[0].secret);
    first.close();
    // Missed while away: two check-ins and an annulment.
    await redeem(listA, positions[1].secret);
    await post(`${O}/checkinrpc/redeem/`, {
      lists: [listA],
      secret: positions[2].secret,
      nonce: 'stream-away',
    });
    expect((await post(`${O}/checkinrpc/annul/`, { lists: [listA], nonce: 'stream-away' })).status).toBe(200);
    const back = await listen(listA, { 'Last-Event-ID': seen.id! });
    expect(back.status).toBe(200);
    await back.waitFor((x) => x.event === 'annulment' && data(x).secret === positions[2].secret);
    expect(back.events.map((x) => [x.event, data(x).secret])).toEqual([
      ['checkin', positions[1].secret],
      ['checkin', positions[2].secret],
      ['annulment', positions[2].secret],
    ]);
    await redeem(listA, positions[3].secret);
    await back.waitFor((x) => data(x).secret === positions[3].secret);
    const ids = back.events.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => a - b));
    // The same through ?last_event_id= (clients that cannot set headers).
    const byQuery = await listen(listA, {}, `?last_event_id=${seen.id}`);
    await byQuery.waitFor((x) => data(x).secret === positions[3].secret);
    expect(byQuery.events.map((x) => x.id)).toEqual(ids);
  });

  it('answers a resumption point never handed out with a reset event, then goes live', async () => {
    const s = await listen(listA, { 'Last-Event-ID': '2000000000' });
    const reset = await s.waitFor((x) => x.event === 'reset');
    expect(JSON.parse(reset.data)).toEqual({ reason: 'unknown' });
    const { positions } = await order();
    await redeem(listA, positions[0].secret);
    await s.waitFor((x) => x.event === 'checkin' && data(x).secret === positions[0].secret);
  });

  describe('with two API processes', () => {
    let apiA: ApiProcess;
    let apiB: ApiProcess;

    beforeAll(async () => {
      const env = {
        DATABASE_URL: (t.db.options as { url: string }).url,
        QUEUE_PREFIX: t.app.get(AppConfig).queuePrefix,
        SHUTDOWN_GRACE_SECONDS: '120',
      };
      [apiA, apiB] = await Promise.all([
        startApiProcess(env),
        startApiProcess({ ...env, STREAM_MAX_CLIENTS: '1' }),
      ]);
    });

    it('pushes a check-in made through API B to a listener on API A', async () => {
      const s = await openSse(`${apiA.baseUrl}${E}/checkinlists/${listA}/stream/`, {
        Authorization: auth(token),
      });
      open.push(s);
      expect(s.status).toBe(200);
      const { positions } = await order();
      const res = await fetch(
        `${apiB.baseUrl}${E}/checkinlists/${listA}/positions/${positions[0].secret}/redeem/?untrusted_input=true`,
        {
          method: 'POST',
          headers: { Authorization: auth(token), 'Content-Type': 'application/json' },
          body: '{}',
        },
      );
      expect(res.status).toBe(201);
      const e = await s.waitFor((x) => data(x).secret === positions[0].secret);
      expect(data(e)).toMatchObject({ list: listA, position: positions[0].id, type: 'entry' });
    });

    it('answers 503 past STREAM_MAX_CLIENTS', async () => {
      const first = await openSse(`${apiB.baseUrl}${E}/checkinlists/${listA}/stream/`, {
        Authorization: auth(token),
      });
      open.push(first);
      expect(first.status).toBe(200);
      const second = await openSse(`${apiB.baseUrl}${E}/checkinlists/${listA}/stream/`, {
        Authorization: auth(token),
      });
      open.push(second);
      await second.ended;
      expect(second.status).toBe(503);
      expect(JSON.parse(second.body)).toEqual({
        detail: 'This server has reached its limit of 1 open streams; try again later.',
      });
      expect(second.headers['retry-after']).toBe('5');
    });

    it('ends open streams on SIGTERM instead of waiting for them (the process exits 0)', async () => {
      const s = await openSse(`${apiA.baseUrl}${E}/checkinlists/${listA}/stream/`, {
        Authorization: auth(token),
      });
      open.push(s);
      expect(s.status).toBe(200);
      apiA.kill('SIGTERM');
      // The grace period is 120 s: exiting within the test's timeout shows the stream did not hold the stop.
      expect(await apiA.exited).toEqual({ code: 0, signal: null });
      await s.ended;
    });
  });
});
