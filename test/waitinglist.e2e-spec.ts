import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `E/waitinglistentries/` (pretix `WaitingListViewSet`, `src/tests/api/test_waitinglist.py`): list and filters,
 * detail, create with pretix's rules, PATCH/PUT, DELETE, the refusals once a voucher was sent, `send_voucher`
 * (voucher, mail in the outbox, log entries), quota availability's `waiting_list`, and the settings keys.
 */
describe('waiting list entries', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  const ORG = '/api/v1/organizers/org/events';
  const E = `${ORG}/sample`;
  const WL = `${E}/waitinglistentries`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  let item: number;
  let quota: number;

  async function createItem(body: object = {}, base = E): Promise<number> {
    const res = await post(`${base}/items/`, { name: 'Budget Ticket', default_price: '23.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  async function createQuota(body: object, base = E): Promise<number> {
    const res = await post(`${base}/quotas/`, { name: 'Budget Ticket', ...body });
    if (res.status !== 201) throw new Error(`createQuota: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  async function createEntry(body: object, base = E): Promise<{ id: number } & Record<string, unknown>> {
    const res = await post(`${base}/waitinglistentries/`, { email: 'waiting@example.org', item, ...body });
    if (res.status !== 201) throw new Error(`createEntry: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number } & Record<string, unknown>;
  }

  const setQuotaSize = (size: number | null) => patch(`${E}/quotas/${quota}/`, { size });
  const entryRow = async (id: number) =>
    (await t.db.query('SELECT * FROM waiting_list_entry WHERE id = $1', [id]))[0] as
      Record<string, unknown> | undefined;
  const actions = async (id: number): Promise<string[]> =>
    (
      await t.db.query(
        "SELECT action_type FROM log_entry WHERE content_type = 'waitinglistentry' AND object_id = $1 ORDER BY id",
        [id],
      )
    ).map((r: { action_type: string }) => r.action_type);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createSeries(t, token, 'org', { slug: 'series' });
    await createEvent(t, token, 'org', { slug: 'other' });
    item = await createItem();
    quota = await createQuota({ size: 0, items: [item] });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
  });
  afterAll(() => t.close());

  afterEach(async () => {
    await t.db.query('DELETE FROM waiting_list_entry');
    await t.db.query('DELETE FROM voucher');
    await setQuotaSize(0);
  });

  it('creates an entry with pretix defaults and shows it in list and detail', async () => {
    const res = await post(`${WL}/`, {
      email: 'testdummy@pretix.eu',
      item,
      variation: null,
      locale: 'en',
      subevent: null,
    });
    expect(res.status).toBe(201);
    const expected = {
      id: res.body.id,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      name: null,
      name_parts: {},
      email: 'testdummy@pretix.eu',
      phone: null,
      voucher: null,
      item,
      variation: null,
      locale: 'en',
      subevent: null,
      priority: 0,
    };
    expect(res.body).toEqual(expected);
    expect(Object.keys(res.body)).toEqual(Object.keys(expected));
    const detail = await get(`${WL}/${res.body.id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(res.body);
    const list = await get(`${WL}/`, reader);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, results: [res.body] });
    expect(await actions(res.body.id)).toEqual(['pretix.event.orders.waitinglist.added']);
  });

  it('name_parts get the default scheme and build the name; locale defaults to en', async () => {
    const entry = await createEntry({
      name_parts: { full_name: 'Peter' },
      locale: null,
      phone: '+4930123456',
    });
    expect(entry).toMatchObject({
      name: 'Peter',
      name_parts: { full_name: 'Peter', _scheme: 'full' },
      locale: 'en',
      phone: '+4930123456',
    });
  });

  it('filters: item, variation, email, locale, has_voucher, subevent; ordering', async () => {
    const other = await createItem({ name: 'Other' });
    await createQuota({ size: 0, items: [other] });
    const a = await createEntry({ email: 'a@example.org', locale: 'de' });
    const b = await createEntry({ email: 'b@example.org', item: other, priority: 5 });
    const ids = async (query: string) =>
      ((await get(`${WL}/?${query}`)).body.results as { id: number }[]).map((r) => r.id);
    expect(await ids('')).toEqual([a.id, b.id]);
    expect(await ids(`item=${item}`)).toEqual([a.id]);
    expect(await ids(`item=${other}`)).toEqual([b.id]);
    expect(await ids('email=a@example.org')).toEqual([a.id]);
    expect(await ids('email=foo@bar.sample')).toEqual([]);
    expect(await ids('locale=de')).toEqual([a.id]);
    expect(await ids('locale=fr')).toEqual([]);
    expect(await ids('has_voucher=false')).toEqual([a.id, b.id]);
    expect(await ids('has_voucher=true')).toEqual([]);
    expect(await ids('variation=999999')).toEqual([]);
    expect(await ids('ordering=-email')).toEqual([b.id, a.id]);
    expect((await get(`${WL}/?item=abc`)).status).toBe(400);
    expect((await get(`${WL}/?has_voucher=maybe`)).status).toBe(400);

    await setQuotaSize(10);
    expect((await post(`${WL}/${a.id}/send_voucher/`)).status).toBe(204);
    expect(await ids('has_voucher=true')).toEqual([a.id]);
    expect(await ids('has_voucher=false')).toEqual([b.id]);
  });

  it('variation and subevent filters on a series', async () => {
    const S = `${ORG}/series`;
    const sItem = await createItem({ variations: [{ value: { en: 'S' } }, { value: { en: 'M' } }] }, S);
    const itemRes = await get(`${S}/items/${sItem}/`);
    const [v1, v2] = (itemRes.body.variations as { id: number }[]).map((v) => v.id);
    const d1 = (await post(`${S}/subevents/`, { name: { en: 'Day 1' }, date_from: '2031-05-01T10:00:00Z' }))
      .body.id as number;
    const d2 = (await post(`${S}/subevents/`, { name: { en: 'Day 2' }, date_from: '2031-05-02T10:00:00Z' }))
      .body.id as number;
    await createQuota({ size: 0, items: [sItem], variations: [v1, v2], subevent: d1 }, S);
    const entry = await createEntry({ item: sItem, variation: v1, subevent: d1 }, S);
    const ids = async (query: string) =>
      ((await get(`${S}/waitinglistentries/?${query}`)).body.results as { id: number }[]).map((r) => r.id);
    expect(await ids(`variation=${v1}`)).toEqual([entry.id]);
    expect(await ids(`variation=${v2}`)).toEqual([]);
    expect(await ids(`subevent=${d1}`)).toEqual([entry.id]);
    expect(await ids(`subevent=${d2}`)).toEqual([]);

    // A series needs a date; the item needs a variation; a date of another event is refused.
    const bad = async (body: object, message: string) => {
      const res = await post(`${S}/waitinglistentries/`, { email: 'x@example.org', item: sItem, ...body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: [message] });
    };
    await bad({ variation: v2, subevent: null }, 'Subevent cannot be null for event series.');
    await bad({ subevent: d1 }, 'Please select a specific variation of this product.');
    // A date without quota for the product: it is not available, so the entry is accepted.
    expect(
      (
        await post(`${S}/waitinglistentries/`, {
          email: 'y@example.org',
          item: sItem,
          variation: v2,
          subevent: d2,
        })
      ).status,
    ).toBe(201);
    const res = await post(`${WL}/`, { email: 'x@example.org', item, subevent: d1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ['The subevent does not belong to this event.'] });
  });

  it('refuses missing fields, unknown references, an available product and duplicates (pretix messages)', async () => {
    const missingEmail = await post(`${WL}/`, { item });
    expect(missingEmail.status).toBe(400);
    expect(missingEmail.body).toHaveProperty('email');
    const missingItem = await post(`${WL}/`, { email: 'x@example.org' });
    expect(missingItem.status).toBe(400);
    expect(missingItem.body).toHaveProperty('item');
    expect((await post(`${WL}/`, { email: 'not-an-email', item })).body).toEqual({
      email: ['Enter a valid email address.'],
    });
    expect((await post(`${WL}/`, { email: 'x@example.org', item: 999999 })).body).toEqual({
      item: ['Invalid pk "999999" - object does not exist.'],
    });
    const otherItem = await createItem({}, `${ORG}/other`);
    expect((await post(`${WL}/`, { email: 'x@example.org', item: otherItem })).body).toEqual({
      non_field_errors: ['The selected item does not belong to this event.'],
    });

    await setQuotaSize(10);
    const available = await post(`${WL}/`, { email: 'x@example.org', item });
    expect(available.status).toBe(400);
    expect(available.body).toEqual({ non_field_errors: ['This product is currently available.'] });

    // One free place and one waiting entry: the product counts as sold out for newcomers.
    await setQuotaSize(0);
    await createEntry({ email: 'first@example.org' });
    await setQuotaSize(1);
    expect((await post(`${WL}/`, { email: 'second@example.org', item })).status).toBe(201);

    const dup = await post(`${WL}/`, { email: 'FIRST@example.org', item });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      non_field_errors: [
        'You are already on this waiting list! We will notify you as soon as we have a ticket available for you.',
      ],
    });
    expect(Number((await t.db.query('SELECT count(*) AS n FROM waiting_list_entry'))[0].n)).toBe(2);
  });

  it('quota availability counts open entries as pretix does', async () => {
    await setQuotaSize(0);
    await createEntry({ email: 'a@example.org' });
    await createEntry({ email: 'b@example.org' });
    await setQuotaSize(3);
    const res = await get(`${E}/quotas/${quota}/availability/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ waiting_list: 2, available_number: 1, available: true, total_size: 3 });
    const listed = await get(`${E}/quotas/${quota}/?with_availability=true`);
    expect(listed.body).toMatchObject({ available_number: 1, available: true });
  });

  it('PATCH and PUT change an entry; rules are checked on the merged data', async () => {
    const entry = await createEntry({});
    const res = await patch(`${WL}/${entry.id}/`, { email: 'foo@pretix.eu' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'foo@pretix.eu', item });
    expect((await entryRow(entry.id))!.email).toBe('foo@pretix.eu');

    const available = await createItem({ name: 'Available' });
    await createQuota({ size: 1, items: [available] });
    const toAvailable = await patch(`${WL}/${entry.id}/`, { item: available });
    expect(toAvailable.status).toBe(400);
    expect(toAvailable.body).toEqual({ non_field_errors: ['This product is currently available.'] });
    expect((await entryRow(entry.id))!.item_id).toBe(item);

    const withVars = await createItem({ name: 'Shirt', variations: [{ value: { en: 'S' } }] });
    const v = ((await get(`${E}/items/${withVars}/`)).body.variations as { id: number }[])[0].id;
    await createQuota({ size: 0, items: [withVars], variations: [v] });
    const missingVar = await patch(`${WL}/${entry.id}/`, { item: withVars });
    expect(missingVar.status).toBe(400);
    expect(missingVar.body).toEqual({
      non_field_errors: ['Please select a specific variation of this product.'],
    });
    const ok = await patch(`${WL}/${entry.id}/`, { item: withVars, variation: v });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ item: withVars, variation: v });

    const replaced = await put(`${WL}/${entry.id}/`, { email: 'put@example.org', item });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ email: 'put@example.org', item, variation: null, priority: 0 });

    await createEntry({ email: 'dup@example.org' });
    const toDup = await patch(`${WL}/${entry.id}/`, { email: 'dup@example.org' });
    expect(toDup.status).toBe(400);
    expect(await actions(entry.id)).toEqual([
      'pretix.event.orders.waitinglist.added',
      'pretix.event.orders.waitinglist.changed',
      'pretix.event.orders.waitinglist.changed',
      'pretix.event.orders.waitinglist.changed',
    ]);
  });

  it('DELETE removes an entry', async () => {
    const entry = await createEntry({});
    const res = await del(`${WL}/${entry.id}/`);
    expect(res.status).toBe(204);
    expect(await entryRow(entry.id)).toBeUndefined();
    expect((await get(`${WL}/${entry.id}/`)).status).toBe(404);
    expect(await actions(entry.id)).toEqual([
      'pretix.event.orders.waitinglist.added',
      'pretix.event.orders.waitinglist.deleted',
    ]);
  });

  it('send_voucher: a one-use blocking voucher, the mail, the logs; then no change, no delete, no second voucher', async () => {
    const entry = await createEntry({ name_parts: { full_name: 'Peter' } });
    await setQuotaSize(10);
    const res = await post(`${WL}/${entry.id}/send_voucher/`);
    expect(res.status).toBe(204);
    const row = (await entryRow(entry.id))!;
    expect(row.voucher_id).toEqual(expect.any(Number));
    const voucher = await get(`${E}/vouchers/${row.voucher_id as number}/`);
    expect(voucher.body).toMatchObject({
      max_usages: 1,
      redeemed: 0,
      block_quota: true,
      item,
      variation: null,
      subevent: null,
      tag: 'waiting-list',
      comment: 'Automatically created from waiting list entry for waiting@example.org / Peter',
    });
    const hours = (Date.parse(voucher.body.valid_until as string) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThanOrEqual(48);
    expect((await get(`${WL}/${entry.id}/`)).body.voucher).toBe(row.voucher_id);
    const mails = await t.db.query(
      "SELECT recipient, subject, body FROM outgoing_mail WHERE recipient = 'waiting@example.org'",
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('You have been selected from the waitinglist for Sample Conference');
    expect(mails[0].body).toContain(voucher.body.code as string);
    expect(mails[0].body).toContain(`/org/sample/redeem?voucher=${voucher.body.code as string}`);
    expect(await actions(entry.id)).toEqual([
      'pretix.event.orders.waitinglist.added',
      'pretix.event.orders.waitinglist.voucher_assigned',
    ]);
    const voucherActions = (
      await t.db.query(
        "SELECT action_type, data FROM log_entry WHERE content_type = 'voucher' AND object_id = $1 ORDER BY id",
        [row.voucher_id],
      )
    ).map((r: { action_type: string }) => r.action_type);
    expect(voucherActions).toEqual(['pretix.voucher.added', 'pretix.voucher.added.waitinglist']);
    const availability = await get(`${E}/quotas/${quota}/availability/`);
    expect(availability.body).toMatchObject({ blocking_vouchers: 1, waiting_list: 0, available_number: 9 });

    const twice = await post(`${WL}/${entry.id}/send_voucher/`);
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual(['A voucher has already been sent to this person.']);
    const change = await patch(`${WL}/${entry.id}/`, { email: 'foo@pretix.eu' });
    expect(change.status).toBe(403);
    expect(change.body).toEqual({
      detail: 'This entry can not be changed as it has already been assigned a voucher.',
    });
    expect((await entryRow(entry.id))!.email).toBe('waiting@example.org');
    const remove = await del(`${WL}/${entry.id}/`);
    expect(remove.status).toBe(403);
    expect(remove.body).toEqual({
      detail: 'This entry can not be deleted as it has already been assigned a voucher.',
    });
    expect(await entryRow(entry.id)).toMatchObject({
      email: 'waiting@example.org',
      voucher_id: expect.any(Number),
    });
    expect((await get(`${WL}/${entry.id}/`)).status).toBe(200);
  });

  it('send_voucher refuses when the product is sold out; the voucher follows waiting_list_hours', async () => {
    const entry = await createEntry({});
    const res = await post(`${WL}/${entry.id}/send_voucher/`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(['This product is currently not available.']);
    expect((await entryRow(entry.id))!.voucher_id).toBeNull();
    expect(await t.db.query('SELECT id FROM voucher')).toEqual([]);
    expect((await post(`${WL}/999999/send_voucher/`)).status).toBe(404);

    const settings = await patch(`${E}/settings/`, { waiting_list_hours: 6, waiting_list_auto: false });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      waiting_list_enabled: false,
      waiting_list_auto: false,
      waiting_list_hours: 6,
      waiting_list_limit_per_user: 1,
    });
    expect((await get(`${E}/settings/`)).body).toMatchObject({ waiting_list_hours: 6 });
    expect((await patch(`${E}/settings/`, { waiting_list_hours: 1 })).status).toBe(400);
    await setQuotaSize(1);
    expect((await post(`${WL}/${entry.id}/send_voucher/`)).status).toBe(204);
    const [v] = await t.db.query('SELECT valid_until FROM voucher');
    const hours = ((v.valid_until as Date).getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(5.9);
    expect(hours).toBeLessThanOrEqual(6);
    await patch(`${E}/settings/`, { waiting_list_hours: 48, waiting_list_auto: true });
  });

  it('webhook payloads of waiting list actions name the entry (compat §5)', async () => {
    const entry = await createEntry({});
    const [row] = await t.db.query(
      `SELECT l.id, p.payload FROM log_entry l,
              webhook_payload(l.id, l.organizer_id, l.event_id, l.content_type, l.object_id, l.action_type, l.data) p
        WHERE l.content_type = 'waitinglistentry' AND l.object_id = $1`,
      [entry.id],
    );
    expect(row.payload).toEqual({
      notification_id: Number(row.id),
      organizer: 'org',
      event: 'sample',
      waitinglistentry: entry.id,
      action: 'pretix.event.orders.waitinglist.added',
    });
  });

  it('permissions: read with event.orders:read, write with event.orders:write', async () => {
    const entry = await createEntry({});
    expect((await get(`${WL}/`, reader)).status).toBe(200);
    expect((await get(`${WL}/${entry.id}/`, reader)).status).toBe(200);
    const denied = await post(`${WL}/`, { email: 'x@example.org', item }, reader);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(DENIED);
    expect((await patch(`${WL}/${entry.id}/`, { priority: 3 }, reader)).status).toBe(403);
    expect((await del(`${WL}/${entry.id}/`, reader)).status).toBe(403);
    expect((await post(`${WL}/${entry.id}/send_voucher/`, {}, reader)).status).toBe(403);
    const none = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.vouchers:read'] });
    expect((await get(`${WL}/`, none)).status).toBe(403);
  });
});
