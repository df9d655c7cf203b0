import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Check-in questions and check-in rules on redeem (compat §3.20 `rules`, §3.21 `incomplete`, `rules`): a product
 * with questions asked during check-in answers 400 `incomplete` with those questions until they are answered
 * (answers stored on the position, validated as order answers; choice answers by option id or identifier);
 * a list's JsonLogic rules refuse with `rules` (stored as an unsuccessful scan) unless forced; malformed rules
 * are refused when a list is written.
 */
describe('check-in questions and rules', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const patch = (path: string, body: object) =>
    t.http().patch(path).set('Authorization', auth(token)).send(body);
  let ticket: number;
  let vip: number;

  const list = async (body: object): Promise<number> => {
    const res = await post(`${E}/checkinlists/`, { name: 'L', ...body });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const paidTicket = async (item: number) => {
    const res = await post(`${E}/orders/`, { status: 'p', positions: [{ item }] });
    expect(res.status).toBe(201);
    return res.body.positions[0] as { id: number; secret: string };
  };
  const redeem = (l: number, secret: string, body: object = {}) =>
    post(`${E}/checkinlists/${l}/positions/${encodeURIComponent(secret)}/redeem/`, body);
  const answers = async (position: number) =>
    t.db.query<{ question_id: number; answer: string }[]>(
      'SELECT question_id, answer FROM question_answer WHERE order_position_id = $1 ORDER BY question_id',
      [position],
    );
  const scans = async (position: number) =>
    t.db.query<{ successful: boolean; error_reason: string | null }[]>(
      'SELECT successful, error_reason FROM checkin WHERE position_id = $1 ORDER BY id',
      [position],
    );

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true })).body.id;
    vip = (await post(`${E}/items/`, { name: 'VIP', default_price: '50.00', admission: true })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [ticket, vip] });
  });
  afterAll(() => t.close());

  describe('questions', () => {
    let shirt: number;
    let age: number;
    let red: number;

    beforeAll(async () => {
      const q1 = await post(`${E}/questions/`, {
        question: { en: 'Shirt colour' },
        type: 'C',
        items: [vip],
        ask_during_checkin: true,
        position: 1,
        options: [
          { answer: { en: 'Red' }, identifier: 'RED' },
          { answer: { en: 'Blue' }, identifier: 'BLUE' },
        ],
      });
      expect(q1.status).toBe(201);
      shirt = q1.body.id;
      red = q1.body.options[0].id;
      const q2 = await post(`${E}/questions/`, {
        question: { en: 'Age' },
        type: 'N',
        items: [vip],
        ask_during_checkin: true,
        position: 2,
      });
      expect(q2.status).toBe(201);
      age = q2.body.id;
      // Not asked during check-in: never required at the door.
      expect(
        (await post(`${E}/questions/`, { question: { en: 'Diet' }, type: 'S', items: [vip] })).status,
      ).toBe(201);
    });

    it('answers incomplete with the unanswered questions; invalid answers count as missing; ok once answered', async () => {
      const l = await list({ all_products: true });
      const p = await paidTicket(vip);
      const first = await redeem(l, p.secret);
      expect(first.status).toBe(400);
      expect(first.body).toMatchObject({
        status: 'incomplete',
        position: { id: p.id },
        list: { id: l },
        questions: [
          {
            id: shirt,
            type: 'C',
            ask_during_checkin: true,
            options: [{ id: red, identifier: 'RED' }, { identifier: 'BLUE' }],
          },
          { id: age, type: 'N' },
        ],
      });
      // An invalid number is ignored; the valid choice (by identifier) is stored; age is still asked.
      const second = await redeem(l, p.secret, { answers: { [shirt]: 'RED', [age]: 'old' } });
      expect(second.status).toBe(400);
      expect(second.body.status).toBe('incomplete');
      expect(second.body.questions.map((q: { id: number }) => q.id)).toEqual([age]);
      expect(await answers(p.id)).toEqual([{ question_id: shirt, answer: 'Red' }]);
      // No scan is stored for incomplete attempts.
      expect(await scans(p.id)).toEqual([]);

      const third = await redeem(l, p.secret, { answers: { [age]: '42' } });
      expect(third.status).toBe(201);
      expect(third.body.status).toBe('ok');
      expect(await answers(p.id)).toEqual([
        { question_id: shirt, answer: 'Red' },
        { question_id: age, answer: '42' },
      ]);
      expect(await scans(p.id)).toEqual([{ successful: true, error_reason: null }]);
    });

    it('all answers at once (choice by option id); old scanners and forced scans are not asked; exits neither', async () => {
      const l = await list({ all_products: true, allow_multiple_entries: true });
      const p = await paidTicket(vip);
      expect((await redeem(l, p.secret, { type: 'exit' })).status).toBe(201);
      expect((await redeem(l, p.secret, { questions_supported: false })).status).toBe(201);
      expect((await redeem(l, p.secret, { force: true })).status).toBe(201);
      expect(await answers(p.id)).toEqual([]);
      const ok = await redeem(l, p.secret, { answers: { [shirt]: String(red), [age]: 30 } });
      expect(ok.status).toBe(201);
      expect(await answers(p.id)).toEqual([
        { question_id: shirt, answer: 'Red' },
        { question_id: age, answer: '30' },
      ]);
      // Answers are stored once; a later scan needs none.
      expect((await redeem(l, p.secret)).status).toBe(201);
    });

    it('products without check-in questions are not asked', async () => {
      const l = await list({ all_products: true });
      const p = await paidTicket(ticket);
      expect((await redeem(l, p.secret)).status).toBe(201);
    });
  });

  describe('rules', () => {
    it('refuses malformed rules on create and update, naming the field; stores valid ones', async () => {
      for (const rules of [
        { nope: [1, 2] },
        { '==': [{ var: 'unknown_var' }, 1] },
        { isAfter: [{ var: 'now' }, { buildTime: ['someday'] }] },
        { and: [], or: [] },
      ]) {
        const res = await post(`${E}/checkinlists/`, { name: 'Bad', all_products: true, rules });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ rules: [expect.any(String)] });
      }
      const l = await list({ all_products: true });
      const bad = await patch(`${E}/checkinlists/${l}/`, { rules: { foo: 1 } });
      expect(bad.status).toBe(400);
      expect(bad.body.rules).toEqual([expect.any(String)]);
      const rules = {
        inList: [{ var: 'product' }, { objectList: [{ lookup: ['product', String(ticket), 'T'] }] }],
      };
      const good = await patch(`${E}/checkinlists/${l}/`, { rules });
      expect(good.status).toBe(200);
      expect(good.body.rules).toEqual(rules);
    });

    it('product rules: inList/objectList/lookup admit one product and refuse the other (stored as rules); force passes', async () => {
      const l = await list({
        all_products: true,
        rules: {
          inList: [{ var: 'product' }, { objectList: [{ lookup: ['product', String(ticket), 'Ticket'] }] }],
        },
      });
      const okTicket = await paidTicket(ticket);
      expect((await redeem(l, okTicket.secret)).status).toBe(201);
      const refused = await paidTicket(vip);
      const res = await redeem(l, refused.secret, { questions_supported: false });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        status: 'error',
        reason: 'rules',
        reason_explanation: expect.any(String),
        position: { id: refused.id },
      });
      expect(await scans(refused.id)).toEqual([{ successful: false, error_reason: 'rules' }]);
      expect((await redeem(l, refused.secret, { force: true })).status).toBe(201);
      // Exits are not subject to the rules.
      expect((await redeem(l, refused.secret, { type: 'exit' })).status).toBe(201);
    });

    it('entries_number limits entries on a multiple-entry list; entries_today and minutes_since_last_entry too', async () => {
      const twice = await list({
        all_products: true,
        allow_multiple_entries: true,
        rules: { '<': [{ var: 'entries_number' }, 2] },
      });
      const p = await paidTicket(ticket);
      expect((await redeem(twice, p.secret)).status).toBe(201);
      expect((await redeem(twice, p.secret)).status).toBe(201);
      expect((await redeem(twice, p.secret)).body.reason).toBe('rules');

      const daily = await list({
        all_products: true,
        allow_multiple_entries: true,
        rules: { '<': [{ var: 'entries_today' }, 1] },
      });
      expect((await redeem(daily, p.secret, { datetime: '2030-01-01T10:00:00Z' })).status).toBe(201);
      expect((await redeem(daily, p.secret, { datetime: '2030-01-01T12:00:00Z' })).body.reason).toBe('rules');
      expect((await redeem(daily, p.secret, { datetime: '2030-01-02T10:00:00Z' })).status).toBe(201);

      const cooldown = await list({
        all_products: true,
        allow_multiple_entries: true,
        rules: {
          or: [
            { '==': [{ var: 'minutes_since_last_entry' }, -1] },
            { '>': [{ var: 'minutes_since_last_entry' }, 30] },
          ],
        },
      });
      expect((await redeem(cooldown, p.secret, { datetime: '2030-01-01T10:00:00Z' })).status).toBe(201);
      expect((await redeem(cooldown, p.secret, { datetime: '2030-01-01T10:20:00Z' })).body.reason).toBe(
        'rules',
      );
      expect((await redeem(cooldown, p.secret, { datetime: '2030-01-01T10:31:00Z' })).status).toBe(201);
    });

    it('time rules: isAfter/isBefore with buildTime custom and tolerance', async () => {
      const l = await list({
        all_products: true,
        allow_multiple_entries: true,
        rules: {
          and: [
            { isAfter: [{ var: 'now' }, { buildTime: ['custom', '2030-05-01T18:00:00Z'] }, 10] },
            { isBefore: [{ var: 'now' }, { buildTime: ['custom', '2030-05-01T23:00:00Z'] }] },
          ],
        },
      });
      const p = await paidTicket(ticket);
      expect((await redeem(l, p.secret, { datetime: '2030-05-01T17:40:00Z' })).body.reason).toBe('rules');
      expect((await redeem(l, p.secret, { datetime: '2030-05-01T17:55:00Z' })).status).toBe(201);
      expect((await redeem(l, p.secret, { datetime: '2030-05-01T22:00:00Z' })).status).toBe(201);
      expect((await redeem(l, p.secret, { datetime: '2030-05-01T23:30:00Z' })).body.reason).toBe('rules');
    });
  });
});
