import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The organizer-level check-in RPC (compat §3.21): a secret redeemed on the list of the event that has the
 * ticket, unknown secrets 404 `invalid`, lists of other organizers, unreachable events 403, two of one event 400,
 * and the search over several lists with the scanner-only rule.
 */
describe('check-in RPC', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const lists: Record<string, number> = {};
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    for (const slug of ['day1', 'day2']) {
      await createEvent(t, token, 'org', { slug });
      const E = `${O}/events/${slug}`;
      const item = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
      await post(`${E}/quotas/`, { name: 'Q', size: 10, items: [item] });
      lists[slug] = (await post(`${E}/checkinlists/`, { name: slug, all_products: true })).body.id;
      const order = await post(`${E}/orders/`, {
        status: 'p',
        positions: [{ item, attendee_name_parts: { given_name: `Guest ${slug}` } }],
      });
      secrets[slug] = order.body.positions[0].secret;
    }
  });
  afterAll(() => t.close());

  it('redeems on the list of the event that has the ticket', async () => {
    const res = await post(`${O}/checkinrpc/redeem/`, {
      lists: [lists.day1, lists.day2],
      secret: secrets.day2,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'ok', list: { id: lists.day2, event: 'day2' } });
    const again = await post(`${O}/checkinrpc/redeem/`, {
      lists: [lists.day1, lists.day2],
      secret: secrets.day2,
    });
    expect(again.status).toBe(400);
    expect(again.body.reason).toBe('already_redeemed');
    const unknown = await post(`${O}/checkinrpc/redeem/`, { lists: [lists.day1], secret: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 'error', reason: 'invalid' });
  });

  it('annuls a check-in by nonce: unsuccessful with reason annulled, the ticket can enter again; unknown nonce 404', async () => {
    const E = `${O}/events/day1`;
    const item = (await post(`${E}/items/`, { name: 'Annul', default_price: '1.00' })).body.id;
    await post(`${E}/quotas/`, { name: 'QA', size: 10, items: [item] });
    const order = await post(`${E}/orders/`, { status: 'p', positions: [{ item }] });
    const secret = order.body.positions[0].secret;
    const failed = await post(`${E}/checkinlists/${lists.day1}/failed_checkins/`, {
      raw_barcode: secret,
      error_reason: 'error',
      nonce: 'n-annul',
    });
    expect(failed.status).toBe(201);
    const ok = await post(`${O}/checkinrpc/redeem/`, { lists: [lists.day1], secret, nonce: 'n-annul' });
    expect(ok.status).toBe(201);
    const res = await post(`${O}/checkinrpc/annul/`, {
      lists: [lists.day1, lists.day2],
      nonce: 'n-annul',
      error_explanation: 'Turned back at the door',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      successful: false,
      error_reason: 'annulled',
      error_explanation: 'Turned back at the door',
      list: lists.day1,
      position: order.body.positions[0].id,
    });
    const history = await get(`${E}/checkins/${res.body.id}/`);
    expect(history.body).toMatchObject({ successful: false, error_reason: 'annulled' });
    // No successful entry remains: a new scan is admitted.
    expect((await post(`${O}/checkinrpc/redeem/`, { lists: [lists.day1], secret })).status).toBe(201);
    const again = await post(`${O}/checkinrpc/annul/`, { lists: [lists.day1], nonce: 'n-annul' });
    expect(again.status).toBe(404);
    expect((await post(`${O}/checkinrpc/annul/`, { lists: [lists.day1] })).body).toEqual({
      nonce: ['This field is required.'],
    });
    expect((await post(`${O}/checkinrpc/annul/`, { lists: [999999], nonce: 'x' })).status).toBe(403);
  });

  it('refuses unknown or unreachable lists, two lists of one event, and a missing secret', async () => {
    const second = (await post(`${O}/events/day1/checkinlists/`, { name: 'Side', all_products: true })).body
      .id;
    expect(
      (await post(`${O}/checkinrpc/redeem/`, { lists: [lists.day1, second], secret: secrets.day1 })).body,
    ).toEqual(['Selecting two check-in lists from the same event is unsupported.']);
    const unknown = await post(`${O}/checkinrpc/redeem/`, { lists: [987654], secret: 'x' });
    expect(unknown.status).toBe(403);
    expect(unknown.body).toEqual({
      detail: 'You requested lists that do not exist or that you do not have access to: 987654',
    });
    const { token: other } = await bootstrapOrganizer(t, 'other');
    expect(
      (await post('/api/v1/organizers/other/checkinrpc/redeem/', { lists: [lists.day1], secret: 'x' }, other))
        .status,
    ).toBe(403);
    const day1Only = await teamToken(t, 'org', {
      limitEvents: ['day1'],
      eventPermissions: ['event.orders:checkin'],
    });
    expect(
      (await post(`${O}/checkinrpc/redeem/`, { lists: [lists.day2], secret: secrets.day2 }, day1Only)).status,
    ).toBe(403);
    expect((await post(`${O}/checkinrpc/redeem/`, { lists: [lists.day1] })).body).toEqual({
      secret: ['This field is required.'],
    });
  });

  it('searches several lists; scanners need 3 characters', async () => {
    const both = (await get(`${O}/checkinrpc/search/?list=${lists.day1}&list=${lists.day2}&search=Guest`))
      .body;
    expect(both.count).toBe(2);
    // One page over both lists: page 2 of size 1 holds the other ticket.
    const q = `${O}/checkinrpc/search/?list=${lists.day1}&list=${lists.day2}&search=Guest&page_size=1`;
    const [p1, p2] = [(await get(q)).body, (await get(`${q}&page=2`)).body];
    expect([p1.count, p2.count]).toEqual([2, 2]);
    expect([...p1.results, ...p2.results].map((p: { secret: string }) => p.secret).sort()).toEqual(
      [secrets.day1, secrets.day2].sort(),
    );
    const scanner = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.orders:checkin'],
    });
    expect(
      (await get(`${O}/checkinrpc/search/?list=${lists.day1}&list=${lists.day2}`, scanner)).body.count,
    ).toBe(0);
    const found = (await get(`${O}/checkinrpc/search/?list=${lists.day1}&search=day1`, scanner)).body;
    expect(found.results.map((p: { secret: string }) => p.secret)).toEqual([secrets.day1]);
  });
});
