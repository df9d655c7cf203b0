import { AppConfig } from '../src/config/app-config';
import { WaitingListAutoAssign } from '../src/waitinglist/waiting-list-auto-assign.periodic';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { startSmtpServer, TestSmtpServer } from './smtp-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * The waiting list's automatic assignment (pretix `assign_automatically`): the scheduler tick of real worker
 * processes sends a voucher, by mail over real SMTP, to the first entry once a place frees up, never more vouchers
 * than free places, also with parallel runs and two workers.
 */
describe('waiting list: automatic assignment', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let token: string;
  const ORG = '/api/v1/organizers/org/events';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const patch = (path: string, body: object) =>
    t.http().patch(path).set('Authorization', auth(token)).send(body);

  /** A live event with one product on a quota of `size`. */
  async function liveEvent(slug: string, size: number): Promise<{ item: number; quota: number }> {
    await createEvent(t, token, 'org', { slug, name: { en: `Event ${slug}` } });
    const item = (await post(`${ORG}/${slug}/items/`, { name: 'Ticket', default_price: '10.00' })).body
      .id as number;
    const quota = (await post(`${ORG}/${slug}/quotas/`, { name: 'Q', size, items: [item] })).body
      .id as number;
    const live = await patch(`${ORG}/${slug}/`, { live: true });
    if (live.status !== 200) throw new Error(`live: ${live.status} ${JSON.stringify(live.body)}`);
    return { item, quota };
  }

  async function entry(slug: string, body: object): Promise<number> {
    const res = await post(`${ORG}/${slug}/waitinglistentries/`, body);
    if (res.status !== 201) throw new Error(`entry: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  const voucherOf = async (id: number): Promise<number | null> =>
    (
      (await t.db.query('SELECT voucher_id FROM waiting_list_entry WHERE id = $1', [id]))[0] as {
        voucher_id: number | null;
      }
    ).voucher_id;
  const vouchersOf = async (slug: string): Promise<number> =>
    Number(
      (
        await t.db.query(
          `SELECT count(*) AS n FROM voucher v JOIN event e ON e.id = v.event_id
            WHERE e.slug = $1 AND v.tag = 'waiting-list'`,
          [slug],
        )
      )[0].n,
    );

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ mailUrl: '' });
    ({ token } = await bootstrapOrganizer(t, 'org'));
  });
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await smtp.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('parallel runs never hand out more vouchers than free places', async () => {
    const { item, quota } = await liveEvent('parallel', 0);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await entry('parallel', { email: `p${i}@example.org`, item }));
    await patch(`${ORG}/parallel/quotas/${quota}/`, { size: 2 });
    const runner = t.app.get(WaitingListAutoAssign);
    const counts = await Promise.all([runner.run(), runner.run(), runner.run(), runner.run()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await vouchersOf('parallel')).toBe(2);
    // The oldest entries (same priority) got them.
    expect(await voucherOf(ids[0])).not.toBeNull();
    expect(await voucherOf(ids[1])).not.toBeNull();
    for (const id of ids.slice(2)) expect(await voucherOf(id)).toBeNull();
    const availability = await t
      .http()
      .get(`${ORG}/parallel/quotas/${quota}/availability/`)
      .set('Authorization', auth(token));
    expect(availability.body).toMatchObject({ blocking_vouchers: 2, waiting_list: 3, available_number: 0 });
    expect(await runner.run()).toBe(0);
  });

  it('a canceled order frees a place: the worker mails the first entry a voucher; one place, one voucher', async () => {
    // Sold out by a paid order; an entry waits; the order is canceled.
    const one = await liveEvent('freed', 1);
    const order = await post(`${ORG}/freed/orders/`, {
      email: 'buyer@example.org',
      status: 'p',
      send_email: false,
      positions: [{ item: one.item }],
    });
    expect(order.status).toBe(201);
    const waiting = await entry('freed', {
      email: 'waiting@example.org',
      item: one.item,
      name_parts: { full_name: 'Wanda' },
    });
    const canceled = await post(`${ORG}/freed/orders/${order.body.code as string}/mark_canceled/`, {
      send_email: false,
    });
    expect(canceled.status).toBe(200);

    // Two entries, one free place: the higher priority gets it, the other keeps waiting.
    const two = await liveEvent('oneplace', 0);
    const low = await entry('oneplace', { email: 'low@example.org', item: two.item });
    const high = await entry('oneplace', { email: 'high@example.org', item: two.item, priority: 10 });
    await patch(`${ORG}/oneplace/quotas/${two.quota}/`, { size: 1 });

    // An event with automatic assignment off is left alone.
    const off = await liveEvent('manual', 0);
    const manual = await entry('manual', { email: 'manual@example.org', item: off.item });
    await patch(`${ORG}/manual/quotas/${off.quota}/`, { size: 5 });
    expect((await patch(`${ORG}/manual/settings/`, { waiting_list_auto: false })).status).toBe(200);

    const env = { ...workerEnvFor(t), MAIL_URL: smtp.url, SCHEDULER_INTERVAL_MS: '500' };
    await Promise.all([startWorker(env), startWorker(env)]);
    await eventually(
      () =>
        Promise.resolve(
          ['waiting@example.org', 'high@example.org'].every((to) =>
            smtp.received.some((m) => m.to.includes(to)),
          ) || undefined,
        ),
      60_000,
    );

    const mail = smtp.received.find((m) => m.to.includes('waiting@example.org'))!;
    expect(mail.subject).toBe('You have been selected from the waitinglist for Event freed');
    const voucherId = await voucherOf(waiting);
    expect(voucherId).not.toBeNull();
    const voucher = await t
      .http()
      .get(`${ORG}/freed/vouchers/${voucherId}/`)
      .set('Authorization', auth(token));
    expect(voucher.body).toMatchObject({
      max_usages: 1,
      block_quota: true,
      tag: 'waiting-list',
      item: one.item,
    });
    expect(mail.text).toContain(voucher.body.code as string);
    expect(mail.text).toContain('Hello Wanda,');

    // A few more ticks: still one voucher for the one place, none for the manual event.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await voucherOf(high)).not.toBeNull();
    expect(await voucherOf(low)).toBeNull();
    expect(await vouchersOf('oneplace')).toBe(1);
    expect(await voucherOf(manual)).toBeNull();
    expect(smtp.received.filter((m) => m.to.includes('low@example.org'))).toEqual([]);
    expect(smtp.received.filter((m) => m.to.includes('high@example.org'))).toHaveLength(1);
    const assigned: { action_type: string; user_id: number | null }[] = await t.db.query(
      "SELECT action_type, user_id FROM log_entry WHERE content_type = 'waitinglistentry' AND object_id = $1 ORDER BY id",
      [high],
    );
    expect(assigned.map((a) => a.action_type)).toEqual([
      'pretix.event.orders.waitinglist.added',
      'pretix.event.orders.waitinglist.voucher_assigned',
    ]);
  });
});
