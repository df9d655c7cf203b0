import { UsersService } from '../src/auth/users.service';
import { GiftCardAcceptancesService } from '../src/giftcards/giftcard-acceptances.service';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import type { TestApp } from './harness';
import { fixtureRoutes } from './fixture-routes';
import { sampleLayout } from './seating-fixtures';

/** A GET route of the route table with its URL on the fixture; `detail`: one object, not a list. */
export interface FixtureRoute {
  path: string;
  url: string;
  detail: boolean;
}

/** What {@link seedRouteFixture} made: the organizer's token, the values of route parameters and the routes. */
export interface RouteFixture {
  token: string;
  params: Record<string, string>;
  onDate: Record<string, string>;
  ids: Record<string, number | string>;
  /** Every GET route but the public OpenAPI document, with its URL for the fixture. */
  routes(): FixtureRoute[];
}

/**
 * An organizer `org` with an event `sample` that has realistic data on every resource (items with variations,
 * add-ons and bundles; questions with options; orders with positions, fees, payments, answers and an invoice
 * address; teams with members, invites and tokens; two rows or more on every list), a second event and a series
 * with a seated date, and the URL of every GET route on it (test/statement-counts.e2e-spec.ts,
 * test/cursor-pagination.e2e-spec.ts).
 */
export async function seedRouteFixture(t: TestApp): Promise<RouteFixture> {
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  /** The one GET route read with a device token (`Authorization: Device`). */
  let token = '';

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies, checked by the assertions
  const send = async (path: string, body: unknown): Promise<Record<string, any>> => {
    const res = await t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  };

  const params: Record<string, string> = {};
  const onDate: Record<string, string> = {};
  const ids: Record<string, number | string> = {};

  ({ token } = await bootstrapOrganizer(t, 'org'));
  await createEvent(t, token, 'org', { slug: 'sample' });
  await createEvent(t, token, 'org', { slug: 'second' });
  await send(`${E}/taxrules/`, { name: 'Reduced', rate: '7.00' });
  const rule = await send(`${E}/taxrules/`, { name: 'VAT', rate: '19.00' });
  const mailRules: Record<string, unknown>[] = [];
  for (const subject of ['First', 'Second']) {
    mailRules.push(
      await send(`${E}/sendmail_rules/`, {
        subject,
        template: 'Hi {name}',
        send_date: '2031-01-01T10:00:00Z',
      }),
    );
  }
  const addonCategory = await send(`${E}/categories/`, { name: 'Extras', is_addon: true });
  const merchCategory = await send(`${E}/categories/`, { name: 'Merchandise', is_addon: true });
  const included = await send(`${E}/items/`, {
    name: 'Included',
    default_price: '5.00',
    tax_rule: rule.id,
  });
  const shirt = await send(`${E}/items/`, { name: 'Shirt', default_price: '15.00', tax_rule: rule.id });
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < 3; i++) {
    items.push(
      await send(`${E}/items/`, {
        name: `Ticket ${i}`,
        default_price: '50.00',
        tax_rule: rule.id,
        variations: [{ value: 'Early' }, { value: 'Late', default_price: '60.00' }],
        addons: [
          { addon_category: addonCategory.id, min_count: 0, max_count: 2 },
          { addon_category: merchCategory.id, min_count: 0, max_count: 1 },
        ],
        bundles: [
          { bundled_item: included.id, count: 1, designated_price: '5.00' },
          { bundled_item: shirt.id, count: 1 },
        ],
      }),
    );
  }
  const item = items[0];
  const variation = (item.variations as { id: number }[])[0].id;
  const questions: Record<string, unknown>[] = [];
  for (let i = 0; i < 3; i++) {
    questions.push(
      await send(`${E}/questions/`, {
        question: `Size ${i}?`,
        type: 'C',
        items: items.map((x) => x.id),
        options: [{ answer: 'S' }, { answer: 'M' }, { answer: 'L' }],
      }),
    );
  }
  const textQuestion = await send(`${E}/questions/`, {
    question: 'Name?',
    type: 'S',
    items: items.map((x) => x.id),
  });
  const quota = await send(`${E}/quotas/`, {
    name: 'All',
    size: 100,
    items: [...items.map((x) => x.id), included.id],
    variations: items.flatMap((x) => (x.variations as { id: number }[]).map((v) => v.id)),
  });
  await send(`${E}/quotas/`, { name: 'Second', size: 50, items: [item.id], variations: [variation] });
  const voucher = await send(`${E}/vouchers/`, { code: 'VOUCHER1', item: item.id, max_usages: 5 });
  await send(`${E}/vouchers/`, { code: 'VOUCHER2', quota: quota.id, block_quota: true });
  const discount = await send(`${E}/discounts/`, { internal_name: 'Group', condition_min_count: 2 });
  await send(`${E}/discounts/`, { internal_name: 'Pair', condition_min_count: 3 });
  const membership = await send(`${ORG}/membershiptypes/`, { name: { en: 'Annual pass' } });
  await send(`${ORG}/membershiptypes/`, { name: { en: 'Day pass' } });
  const plan = await send(`${ORG}/seatingplans/`, { name: 'Hall', layout: sampleLayout() });
  await send(`${ORG}/seatingplans/`, { name: 'Small hall', layout: sampleLayout(1, 1) });
  const assigned = await t
    .http()
    .patch(`${E}/`)
    .set('Authorization', auth(token))
    .send({ seating_plan: plan.id, seat_category_mapping: { Stalls: item.id, Balcony: item.id } });
  if (assigned.status !== 200) throw new Error(`seating plan: ${assigned.status} ${assigned.text}`);
  const seat = (await t.http().get(`${E}/seats/`).set('Authorization', auth(token))).body.results[0] as {
    id: number;
  };
  const orders: Record<string, unknown>[] = [];
  for (let i = 0; i < 3; i++) {
    orders.push(
      await send(`${E}/orders/`, {
        email: `buyer${i}@example.com`,
        status: i === 0 ? 'p' : 'n',
        payment_provider: 'banktransfer',
        invoice_address: {
          name: 'Jane Doe',
          street: 'Main St 1',
          zipcode: '10115',
          city: 'Berlin',
          country: 'DE',
        },
        fees: [{ fee_type: 'shipping', value: '5.00', tax_rule: rule.id }],
        positions: [
          {
            item: item.id,
            variation,
            seat: `r1-s${i + 1}`,
            attendee_name: 'Jane',
            answers: [
              { question: textQuestion.id, answer: 'Jane' },
              {
                question: questions[0].id,
                answer: 'S',
                options: [(questions[0].options as { id: number }[])[0].id],
              },
            ],
          },
          { item: items[1].id, variation: (items[1].variations as { id: number }[])[1].id },
        ],
      }),
    );
  }
  // An invoice per order (invoice lists and details).
  const invoices: Record<string, unknown>[] = [];
  for (const o of orders) invoices.push(await send(`${E}/orders/${o.code as string}/create_invoice/`, {}));
  // A payment and two refunds of the first order (payment and refund lists and details).
  const payment = await send(`${E}/orders/${orders[0].code as string}/payments/`, {
    state: 'created',
    amount: '1.00',
    provider: 'manual',
  });
  const refundBody = { state: 'created', source: 'admin', amount: '1.00', provider: 'manual' };
  const refund = await send(`${E}/orders/${orders[0].code as string}/refunds/`, refundBody);
  await send(`${E}/orders/${orders[0].code as string}/refunds/`, refundBody);
  const cart = await send(`${E}/cartpositions/`, {
    item: item.id,
    variation,
    price: '50.00',
    seat: 'r2-s1',
  });
  await send(`${E}/cartpositions/`, {
    item: items[1].id,
    variation: (items[1].variations as { id: number }[])[0].id,
    price: '50.00',
  });
  const team = await send(`${ORG}/teams/`, { name: 'Crew', all_events: true, all_event_permissions: true });
  const users = t.app.get(UsersService);
  const member = await users.create('alice@example.com', 'password123', 'Alice');
  await users.create('bob@example.com', 'password123', 'Bob');
  await send(`${ORG}/teams/${team.id}/invites/`, { email: 'alice@example.com' });
  await send(`${ORG}/teams/${team.id}/invites/`, { email: 'bob@example.com' });
  const invite = await send(`${ORG}/teams/${team.id}/invites/`, { email: 'carol@example.com' });
  await send(`${ORG}/teams/${team.id}/invites/`, { email: 'dave@example.com' });
  const teamToken = await send(`${ORG}/teams/${team.id}/tokens/`, { name: 'one' });
  await send(`${ORG}/teams/${team.id}/tokens/`, { name: 'two' });

  const position = (orders[0].positions as { id: number }[])[0].id;
  const giftcard = await send(`${ORG}/giftcards/`, {
    currency: 'EUR',
    value: '50.00',
    owner_ticket: position,
  });
  await send(`${ORG}/giftcards/`, { currency: 'EUR', value: '10.00' });
  const debit = await t
    .http()
    .post(`${ORG}/giftcards/${giftcard.id}/transact/`)
    .set('Authorization', auth(token))
    .send({ value: '-5.00' });
  expect(debit.status).toBe(200);
  const medium = await send(`${ORG}/reusablemedia/`, {
    type: 'barcode',
    identifier: 'CARD-1',
    linked_giftcard: giftcard.id,
    linked_orderposition: position,
  });
  await send(`${ORG}/reusablemedia/`, { type: 'nfc_uid', identifier: '04AA' });
  for (const issuer of ['issuer1', 'issuer2']) {
    await bootstrapOrganizer(t, issuer);
    await t.app.get(GiftCardAcceptancesService).ensure('org', issuer, { active: true, reusableMedia: true });
  }
  // Check-in: two lists, two scans on the first (one refused), so every check-in list has several rows.
  const checkinList = await send(`${E}/checkinlists/`, { name: 'Main', all_products: true });
  await send(`${E}/checkinlists/`, { name: 'Side', all_products: true });
  for (const order of orders) {
    for (const p of order.positions as { id: number }[]) {
      await t
        .http()
        .post(`${E}/checkinlists/${checkinList.id}/positions/${p.id}/redeem/`)
        .set('Authorization', auth(token))
        .send({ ignore_unpaid: true });
    }
  }
  // Blocked, printed and revoked tickets: two rows on blockedsecrets/ and revokedsecrets/, print logs on positions.
  for (const order of orders) {
    const p = (order.positions as { id: number }[])[0];
    const blocked = await t
      .http()
      .post(`${E}/orderpositions/${p.id}/add_block/`)
      .set('Authorization', auth(token))
      .send({ name: 'admin' });
    expect(blocked.status).toBe(200);
    await send(`${E}/orderpositions/${p.id}/printlog/`, {
      datetime: '2026-01-01T10:00:00Z',
      source: 'app',
      type: 'badge',
    });
  }
  const regenerated = await t
    .http()
    .post(`${E}/orders/${orders[orders.length - 1].code as string}/regenerate_secrets/`)
    .set('Authorization', auth(token))
    .send({});
  expect(regenerated.status).toBe(200);
  const checkins: { id: number }[] = await t.db.query('SELECT id FROM checkin ORDER BY id LIMIT 1');
  const mails: { id: number }[] = await t.db.query('SELECT id FROM outgoing_mail ORDER BY id LIMIT 1');
  const property = await send(`${ORG}/event_meta_properties/`, { name: 'kind' });
  await send(`${ORG}/event_meta_properties/`, { name: 'room' });
  const hook = { target_url: 'https://hooks.example.org/in', action_types: ['pretix.event.order.placed'] };
  const webhook = await send(`${ORG}/webhooks/`, { ...hook, limit_events: ['sample'] });
  await send(`${ORG}/webhooks/`, hook);
  await t.db.query(
    `INSERT INTO webhook_delivery (uid, webhook_id, log_entry_id, action, payload, give_up_at)
     SELECT gen_random_uuid(), $1, g, 'pretix.event.order.placed', '{}', now() FROM generate_series(1, 2) g`,
    [webhook.id],
  );
  // Dates of the fixture's event (not a series: its orders came first), written in SQL, with price overrides.
  const dates: { id: number }[] = await t.db.query(
    `INSERT INTO subevent (event_id, name, date_from)
     SELECT e.id, '{"en": "Day"}', now() FROM event e CROSS JOIN generate_series(1, 2) WHERE e.slug = 'sample'
     RETURNING id`,
  );
  await t.db.query(
    'INSERT INTO subevent_item_price (subevent_id, item_id, price) SELECT unnest($1::int[]), $2, 5',
    [dates.map((d) => d.id), item.id],
  );
  // A series with a seated date, for the routes under `:subevent` (they run on the series, not on `sample`).
  await send(`${ORG}/events/`, {
    name: { en: 'Series' },
    slug: 'series',
    currency: 'EUR',
    date_from: '2030-01-01T19:00:00Z',
    has_subevents: true,
  });
  const seriesDate = await send(`${ORG}/events/series/subevents/`, {
    name: { en: 'Day' },
    date_from: '2030-01-01T19:00:00Z',
    seating_plan: plan.id,
  });
  const dateSeat = (
    await t
      .http()
      .get(`${ORG}/events/series/subevents/${String(seriesDate.id)}/seats/`)
      .set('Authorization', auth(token))
  ).body.results[0] as { id: number };
  onDate.subevent = String(seriesDate.id);
  onDate.seat = String(dateSeat.id);
  Object.assign(params, {
    organizer: 'org',
    event: 'sample',
    webhook: String(webhook.id),
    item: String(item.id),
    question: String(questions[0].id),
    team: String(team.id),
    issuer: 'issuer1',
    list: String(checkinList.id),
    number: invoices[0].number as string,
    identifier: 'invoices',
  });
  // Scheduled exports of both levels (two each), owned by a user, written in SQL.
  const owner = await t.db.query<{ id: number }[]>(
    `INSERT INTO user_account (email, password_hash) VALUES ('owner@example.com', 'x') RETURNING id`,
  );
  const exportRows = await t.db.query<{ id: number; event_id: number | null }[]>(
    `INSERT INTO scheduled_export (organizer_id, event_id, owner_id, export_identifier, schedule_rrule,
                                   schedule_rrule_time, schedule_next_run)
     SELECT e.organizer_id, lvl.event_id, $1, 'orderlist', 'RRULE:FREQ=DAILY', '03:00', now() + interval '1 day'
       FROM event e, LATERAL (VALUES (e.id), (e.id), (NULL::int), (NULL::int)) AS lvl(event_id)
      WHERE e.slug = 'sample'
     RETURNING id, event_id`,
    [owner[0].id],
  );
  ids.scheduled_exports_event = exportRows.find((r) => r.event_id !== null)!.id;
  ids.scheduled_exports = exportRows.find((r) => r.event_id === null)!.id;
  const [transaction] = await t.db.query<{ id: number }[]>(
    `SELECT t.id FROM order_transaction t JOIN event e ON e.id = t.event_id WHERE e.slug = 'sample' ORDER BY t.id LIMIT 1`,
  );
  // Resources of pretix 2026's pages (issue 25): customers, memberships, item meta properties, program times,
  // automatic check-in rules, waiting list entries (written in SQL: the API takes entries only when sold out).
  const customer = await send(`${ORG}/customers/`, { email: 'customer@example.org' });
  const membershipRow = await send(`${ORG}/memberships/`, {
    customer: customer.identifier,
    membership_type: membership.id,
    date_start: '2030-01-01T00:00:00Z',
    date_end: '2030-12-31T00:00:00Z',
  });
  const metaProperty = await send(`${E}/item_meta_properties/`, {
    name: 'color',
    default: 'red',
    allowed_values: ['red', 'blue'],
  });
  const programTime = await send(`${E}/items/${item.id as number}/program_times/`, {
    start: '2030-01-01T10:00:00Z',
    end: '2030-01-01T12:00:00Z',
  });
  const autoRule = await send(`${E}/auto_checkin_rules/`, { list: checkinList.id });
  const [waiting] = await t.db.query<{ id: number }[]>(
    `INSERT INTO waiting_list_entry (event_id, email, item_id)
     SELECT e.id, 'waiting@example.org', $1 FROM event e WHERE e.slug = 'sample' RETURNING id`,
    [item.id],
  );
  // Second rows, so every list has several (a per-row statement would show).
  const other = await send(`${ORG}/customers/`, { email: 'other@example.org' });
  await send(`${ORG}/memberships/`, {
    customer: other.identifier,
    membership_type: membership.id,
    date_start: '2030-01-01T00:00:00Z',
    date_end: '2030-12-31T00:00:00Z',
  });
  await send(`${E}/item_meta_properties/`, { name: 'size', default: 'm', allowed_values: ['m'] });
  await send(`${E}/items/${item.id as number}/program_times/`, {
    start: '2030-01-02T10:00:00Z',
    end: '2030-01-02T12:00:00Z',
  });
  await send(`${E}/auto_checkin_rules/`, { list: null });
  await t.db.query(
    `INSERT INTO waiting_list_entry (event_id, email, item_id)
     SELECT e.id, 'later@example.org', $1 FROM event e WHERE e.slug = 'sample'`,
    [item.id],
  );
  params.customer = customer.identifier as string;
  // A file answer on the fixture's position (its download, `orderpositions/:id/answer/:question/`) and a keyed
  // write (`/api/v1/idempotency_query?key=`).
  const fileQuestion = await send(`${E}/questions/`, { question: 'Photo', type: 'F', items: [] });
  await t.db.query(
    `WITH f AS (
       INSERT INTO stored_file (id, kind, filename, content_type, content, size, organizer_id)
       SELECT gen_random_uuid(), 'answer_file', 'photo.png', 'image/png', '\\x89504e47'::bytea, 4, e.organizer_id
         FROM event e WHERE e.slug = 'sample' RETURNING id)
     INSERT INTO question_answer (order_position_id, question_id, answer) SELECT $1, $2, 'file://' || f.id FROM f`,
    [position, fileQuestion.id],
  );
  params.fileQuestion = String(fileQuestion.id);
  await t
    .http()
    .patch(`${E}/taxrules/${rule.id as number}/`)
    .set('Authorization', auth(token))
    .set('X-Idempotency-Key', 'statement-counts')
    .send({ name: 'VAT' })
    .expect(200);
  // Devices and gates (issue 26): two of each, one device on a gate and initialized (its token reads device/info).
  const gate = await send(`${ORG}/gates/`, { name: 'North' });
  await send(`${ORG}/gates/`, { name: 'South' });
  const device = await send(`${ORG}/devices/`, {
    name: 'Scanner',
    limit_events: ['sample', 'second'],
    gate: gate.id,
  });
  await send(`${ORG}/devices/`, { name: 'Box office', all_events: true, limit_events: [] });
  const initialized = await t.http().post('/api/v1/device/initialize').send({
    token: device.initialization_token,
    hardware_brand: 'Zebra',
    hardware_model: 'TC25',
    software_brand: 'pretixSCAN',
    software_version: '1.5.1',
  });
  params.deviceToken = (initialized.body as { api_token: string }).api_token;
  Object.assign(ids, { devices: device.device_id as number, gates: gate.id as number });
  Object.assign(ids, {
    memberships: membershipRow.id as number,
    item_meta_properties: metaProperty.id as number,
    program_times: programTime.id as number,
    auto_checkin_rules: autoRule.id as number,
    waitinglistentries: waiting.id,
    positions: position,
  });
  Object.assign(ids, {
    transactions: transaction.id,
    cartpositions: cart.id as number,
    categories: addonCategory.id as number,
    discounts: discount.id as number,
    items: item.id as number,
    addons: (item.addons as { id: number }[])[0].id,
    bundles: (item.bundles as { id: number }[])[0].id,
    variations: variation,
    orderpositions: position,
    orders: orders[0].code as string,
    payments: payment.local_id as number,
    refunds: refund.local_id as number,
    questions: questions[0].id as number,
    options: (questions[0].options as { id: number }[])[0].id,
    quotas: quota.id as number,
    taxrules: rule.id as number,
    sendmail_rules: mailRules[0].id as number,
    vouchers: voucher.id as number,
    membershiptypes: membership.id as number,
    seatingplans: plan.id as number,
    seats: seat.id,
    teams: team.id as number,
    invites: invite.id as number,
    members: member.id,
    tokens: teamToken.id as number,
    outgoingmails: mails[0].id,
    giftcards: giftcard.id as number,
    reusablemedia: medium.id as number,
    checkinlists: checkinList.id as number,
    checkins: checkins[0].id,
    event_meta_properties: property.id as number,
    subevents: dates[0].id,
    webhooks: webhook.id as number,
  });
  // A live event for the device's event selection (it weighs live events only).
  await t.db.query(
    "UPDATE event SET live = true WHERE slug = 'second' AND organizer_id = (SELECT id FROM organizer WHERE slug = 'org')",
  );

  return { token, params, onDate, ids, routes: () => fixtureRoutes(params, onDate, ids) };
}
