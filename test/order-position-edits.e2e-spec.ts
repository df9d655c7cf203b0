import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `PATCH E/orderpositions/{id}/` and `POST E/orderpositions/{id}/regenerate_secrets/` (pretix "Order position
 * endpoints", "Manipulating individual positions"; permission `event.orders:write`): attendee fields, answers
 * (replaced, validated as on order create), validity; product-level fields refused; audit log and webhooks.
 */
describe('order positions: PATCH and regenerate_secrets', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  let ticket: number;
  let text: number;
  let choice: number;
  let optionA: number;
  let optionB: number;
  let webhook: number;

  async function order(body: object = {}): Promise<{ code: string; id: number; secret: string }> {
    const res = await post(`${E}/orders/`, {
      status: 'p',
      positions: [{ item: ticket, attendee_name: 'Ann', answers: [{ question: text, answer: 'first' }] }],
      ...body,
    });
    expect(res.status).toBe(201);
    const p = res.body.positions[0] as { id: number; secret: string };
    return { code: res.body.code as string, id: p.id, secret: p.secret };
  }
  const logs = (orderCode: string) =>
    t.db.query<{ action_type: string; data: Record<string, unknown> }[]>(
      `SELECT l.action_type, l.data FROM log_entry l JOIN orders o ON o.id = l.object_id
        WHERE l.content_type = 'order' AND o.code = $1
          AND (l.action_type LIKE 'pretix.event.order.changed.%' OR l.action_type = 'pretix.event.order.modified')
        ORDER BY l.id`,
      [orderCode],
    );
  const deliveries = (orderCode: string) =>
    t.db.query<{ action: string }[]>(
      'SELECT action FROM webhook_delivery WHERE order_code = $1 AND webhook_id = $2 ORDER BY id',
      [orderCode, webhook],
    );

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [ticket] });
    text = (await post(`${E}/questions/`, { question: 'Diet', type: 'S', items: [ticket] })).body.id;
    const q = await post(`${E}/questions/`, {
      question: 'Size',
      type: 'C',
      items: [ticket],
      options: [{ answer: 'A' }, { answer: 'B' }],
    });
    choice = q.body.id;
    [optionA, optionB] = (q.body.options as { id: number }[]).map((o) => o.id);
    const hook = await post('/api/v1/organizers/org/webhooks/', {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.event.order.modified', 'pretix.event.order.changed.*'],
    });
    expect(hook.status).toBe(201);
    webhook = hook.body.id;
  });
  afterAll(() => t.close());

  it('changes attendee fields and answers, answers 200 with the position; logged and sent to webhooks', async () => {
    const pos = await order();
    const before = (await get(`${E}/orders/${pos.code}/`)).body.last_modified as string;
    const res = await patch(`${E}/orderpositions/${pos.id}/`, {
      attendee_name_parts: { given_name: 'Bea', family_name: 'Lee' },
      attendee_email: 'bea@example.org',
      company: 'ACME',
      city: 'Berlin',
      country: 'de',
      answers: [
        { question: choice, options: [optionB] },
        { question: text, answer: 'vegan' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: pos.id,
      order: pos.code,
      attendee_name: 'Bea Lee',
      attendee_name_parts: { given_name: 'Bea', family_name: 'Lee' },
      attendee_email: 'bea@example.org',
      company: 'ACME',
      city: 'Berlin',
      country: 'DE',
      secret: pos.secret,
    });
    const answers = [...(res.body.answers as { question: number; answer: string; options: number[] }[])].sort(
      (a, b) => a.question - b.question,
    );
    expect(answers.map((a) => [a.question, a.answer, a.options])).toEqual(
      [
        [text, 'vegan', []],
        [choice, 'B', [optionB]],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    const again = await get(`${E}/orderpositions/${pos.id}/`);
    expect(again.body).toEqual(res.body);
    const after = (await get(`${E}/orders/${pos.code}/`)).body.last_modified as string;
    expect(after > before).toBe(true);

    const log = await logs(pos.code);
    expect(log.map((l) => l.action_type)).toEqual(['pretix.event.order.modified']);
    expect(log[0].data).toEqual({
      data: [
        {
          position: pos.id,
          attendee_name_parts: { given_name: 'Bea', family_name: 'Lee' },
          attendee_email: 'bea@example.org',
          company: 'ACME',
          city: 'Berlin',
          country: 'de',
          [`question_${choice}`]: 'B',
          [`question_${text}`]: 'vegan',
        },
      ],
    });
    expect(await deliveries(pos.code)).toEqual([{ action: 'pretix.event.order.modified' }]);
  });

  it('answers replace all answers (an empty list removes them); a legacy name; nothing sent changes nothing', async () => {
    const pos = await order();
    const res = await patch(`${E}/orderpositions/${pos.id}/`, { answers: [], attendee_name: 'Cid' });
    expect(res.status).toBe(200);
    expect(res.body.answers).toEqual([]);
    expect(res.body.attendee_name).toBe('Cid');
    expect(res.body.attendee_name_parts).toEqual({ _legacy: 'Cid' });
    const count = await t.db.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM question_answer WHERE order_position_id = $1',
      [pos.id],
    );
    expect(count).toEqual([{ n: 0 }]);
    // Unchanged values and unknown fields: 200, nothing logged.
    const same = await patch(`${E}/orderpositions/${pos.id}/`, { attendee_name: 'Cid', foo: 1 });
    expect(same.status).toBe(200);
    expect((await logs(pos.code)).length).toBe(1);
  });

  it('changes valid_from and valid_until (logged as changed.valid_from / valid_until)', async () => {
    const pos = await order();
    const res = await patch(`${E}/orderpositions/${pos.id}/`, {
      valid_from: '2030-01-01T10:00:00+02:00',
      valid_until: '2030-01-02T10:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.valid_from).toBe('2030-01-01T08:00:00Z');
    expect(res.body.valid_until).toBe('2030-01-02T10:00:00Z');
    const log = await logs(pos.code);
    expect(log.map((l) => l.action_type)).toEqual([
      'pretix.event.order.changed.valid_from',
      'pretix.event.order.changed.valid_until',
      'pretix.event.order.modified',
    ]);
    expect(log[0].data).toMatchObject({ position: pos.id, positionid: 1, new_value: '2030-01-01T08:00:00Z' });
    const cleared = await patch(`${E}/orderpositions/${pos.id}/`, { valid_from: null });
    expect(cleared.body.valid_from).toBeNull();
  });

  it('refuses product-level fields, both names, states without a state country and bad answers; nothing changes', async () => {
    const pos = await order();
    const before = (await get(`${E}/orderpositions/${pos.id}/`)).body as object;
    const cases: [object, object][] = [
      [{ item: ticket, company: 'X' }, { item: [expect.stringContaining('cannot be changed')] }],
      [{ price: '1.00' }, { price: [expect.stringContaining('cannot be changed')] }],
      [{ secret: 'abc' }, { secret: [expect.stringContaining('cannot be changed')] }],
      [{ seat: 'x' }, { seat: [expect.stringContaining('cannot be changed')] }],
      [{ subevent: 1 }, { subevent: [expect.stringContaining('cannot be changed')] }],
      [
        { attendee_name: 'A', attendee_name_parts: { given_name: 'B' } },
        { attendee_name: ['Do not specify attendee_name if you specified attendee_name_parts.'] },
      ],
      [{ state: 'BY', country: 'DE' }, { state: ['States are not supported in country "DE".'] }],
      [{ country: 'XX' }, { country: ['Invalid country code.'] }],
      [{ attendee_email: 'nope' }, { attendee_email: ['Enter a valid email address.'] }],
      [
        {
          answers: [
            { question: text, answer: 'ok' },
            { question: 999999, answer: 'x' },
          ],
        },
        { answers: [{}, { question: ['Invalid pk "999999" - object does not exist.'] }] },
      ],
      [
        { answers: [{ question: choice, options: [optionA, optionB] }] },
        { answers: [{ non_field_errors: ['You can specify at most one option for this question.'] }] },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await patch(`${E}/orderpositions/${pos.id}/`, { company: 'changed', ...body });
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.body).toEqual(errors);
    }
    expect((await get(`${E}/orderpositions/${pos.id}/`)).body).toEqual(before);
    expect(await logs(pos.code)).toEqual([]);
    // A state in a state country is fine.
    const us = await patch(`${E}/orderpositions/${pos.id}/`, { country: 'US', state: 'CA' });
    expect([us.status, us.body.state]).toEqual([200, 'CA']);
  });

  it('PUT answers 405; unknown, canceled and foreign positions 404; needs event.orders:write', async () => {
    const pos = await order();
    const put = await t
      .http()
      .put(`${E}/orderpositions/${pos.id}/`)
      .set('Authorization', auth(token))
      .send({});
    expect([put.status, put.body]).toEqual([405, { detail: 'Method "PUT" not allowed.' }]);
    for (const id of [999999, 'abc']) {
      expect((await patch(`${E}/orderpositions/${id}/`, { company: 'X' })).status).toBe(404);
      expect((await post(`${E}/orderpositions/${id}/regenerate_secrets/`)).status).toBe(404);
    }
    const denied = await patch(`${E}/orderpositions/${pos.id}/`, { company: 'X' }, reader);
    expect(denied.status).toBe(403);
    expect((await post(`${E}/orderpositions/${pos.id}/regenerate_secrets/`, {}, reader)).status).toBe(403);
    await t.db.query('UPDATE order_position SET canceled = true WHERE id = $1', [pos.id]);
    expect((await patch(`${E}/orderpositions/${pos.id}/`, { company: 'X' })).status).toBe(404);
    expect((await post(`${E}/orderpositions/${pos.id}/regenerate_secrets/`)).status).toBe(404);
  });

  it('regenerate_secrets gives one position a new secret and revokes the old one; the other keeps its secret', async () => {
    const res = await post(`${E}/orders/`, { status: 'p', positions: [{ item: ticket }, { item: ticket }] });
    const [first, second] = res.body.positions as { id: number; secret: string }[];
    const code = res.body.code as string;
    const regen = await post(`${E}/orderpositions/${first.id}/regenerate_secrets/`);
    expect(regen.status).toBe(200);
    expect(regen.body.id).toBe(first.id);
    expect(regen.body.secret).not.toBe(first.secret);
    expect(regen.body.secret).toMatch(/^[a-z0-9]{32}$/);
    expect((await get(`${E}/orderpositions/${second.id}/`)).body.secret).toBe(second.secret);
    expect((await get(`${E}/orderpositions/${first.id}/`)).body.secret).toBe(regen.body.secret);
    const revoked = await get(`${E}/revokedsecrets/?page_size=100`);
    const secrets = (revoked.body.results as { secret: string; position: number }[]).map((r) => r.secret);
    expect(secrets).toContain(first.secret);
    expect(secrets).not.toContain(second.secret);
    const log = await logs(code);
    expect(log).toEqual([
      { action_type: 'pretix.event.order.changed.secret', data: { position: first.id, positionid: 1 } },
    ]);
    expect(await deliveries(code)).toEqual([{ action: 'pretix.event.order.changed.secret' }]);
  });
});
