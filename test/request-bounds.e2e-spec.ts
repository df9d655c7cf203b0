import { MAX_FILTER_LENGTH } from '../src/common/listing/query-filters';
import { MAX_LAYOUT_NAME } from '../src/seating/seating-layout.rules';
import {
  MAIL_SUBJECT_MAX,
  MAIL_TEXT_MAX,
  MAX_PLACEHOLDERS,
} from '../src/sendmail-rules/sendmail-schedule.rules';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

type Layout = { zones: { rows: { row_number: string; seats: Record<string, unknown>[] }[] }[] };

/**
 * Request paths whose cost a client's input could drive beyond its size (README "Security", "Work a request may
 * cause"): the texts of e-mail rules (rendered once per recipient, each placeholder standing for a long value) and
 * the names in seating layouts (copied into the `seat` table when an event takes the plan) are bounded and answer
 * 400 naming the field; search filters stay bounded and literal.
 */
describe('request bounds', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const count = async (table: string) =>
    Number((await t.db.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
  });
  afterAll(() => t.close());

  describe('e-mail rule texts', () => {
    const rule = (subject: unknown, template: unknown) => ({
      subject,
      template,
      send_date: '2031-01-01T10:00:00Z',
    });

    it(`a template of ${MAIL_TEXT_MAX} characters with ${MAX_PLACEHOLDERS} placeholders is accepted`, async () => {
      const text = '{url}'.repeat(MAX_PLACEHOLDERS) + 'x'.repeat(MAIL_TEXT_MAX - 5 * MAX_PLACEHOLDERS);
      const res = await post(
        `${E}/sendmail_rules/`,
        rule('S'.repeat(MAIL_SUBJECT_MAX), { en: text, de: text }),
      );
      expect(res.status).toBe(201);
      expect(await count('sendmail_rule')).toBe(1);
    });

    it.each([
      ['template above the length', { en: 'x'.repeat(MAIL_TEXT_MAX + 1) }, 'template', 'characters'],
      [
        'template with a long German text',
        { en: 'x', de: 'x'.repeat(MAIL_TEXT_MAX + 1) },
        'template',
        'characters',
      ],
      [
        'template with one placeholder too many',
        '{url}'.repeat(MAX_PLACEHOLDERS + 1),
        'template',
        'placeholders',
      ],
      ['subject above the length', { en: 'S'.repeat(MAIL_SUBJECT_MAX + 1) }, 'subject', 'characters'],
    ])('%s: 400 naming the field, nothing written', async (_what, text, field, word) => {
      const before = await count('sendmail_rule');
      const body = field === 'template' ? rule('Hello', text) : rule(text, 'Body');
      const res = await post(`${E}/sendmail_rules/`, body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body as object)).toEqual([field]);
      expect((res.body as Record<string, string[]>)[field][0]).toContain(word);
      expect(await count('sendmail_rule')).toBe(before);
    });
  });

  describe('seating layouts', () => {
    it(`names longer than ${MAX_LAYOUT_NAME} characters answer 400 naming the place; ${MAX_LAYOUT_NAME} are accepted`, async () => {
      const long = (n: number) => 'g'.repeat(n);
      const ok = sampleLayout() as unknown as Layout;
      ok.zones[0].rows[0].seats[0].seat_guid = long(MAX_LAYOUT_NAME);
      ok.zones[0].rows[0].row_number = long(MAX_LAYOUT_NAME);
      expect((await post(`${O}/seatingplans/`, { name: 'OK', layout: ok })).status).toBe(201);

      const bad = sampleLayout() as unknown as Layout;
      bad.zones[0].rows[1].seats[2].seat_guid = long(MAX_LAYOUT_NAME + 1);
      bad.zones[0].rows[0].row_number = long(MAX_LAYOUT_NAME + 1);
      const res = await post(`${O}/seatingplans/`, { name: 'Bad', layout: bad });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        layout: [
          `zones[0].rows[0].row_number: at most ${MAX_LAYOUT_NAME} characters.`,
          `zones[0].rows[1].seats[2].seat_guid: at most ${MAX_LAYOUT_NAME} characters.`,
        ],
      });
      expect(await count('seating_plan')).toBe(1);
    });

    it('a layout of 100,000 broken seats answers 400 with the first 50 problems, fast', async () => {
      const seats = Array.from({ length: 100_000 }, () => ({ seat_guid: 'same' }));
      const layout = { ...sampleLayout(), zones: [{ name: 'Z', rows: [{ row_number: '1', seats }] }] };
      const started = Date.now();
      const res = await post(`${O}/seatingplans/`, { name: 'Huge', layout });
      expect(res.status).toBe(400);
      expect((res.body as { layout: string[] }).layout).toHaveLength(50);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  describe('search filters (verified: already bounded)', () => {
    it(`search is literal (% and _ match themselves) and at most ${MAX_FILTER_LENGTH} characters`, async () => {
      await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' });
      const list = (q: string) =>
        t.http().get(`${E}/items/`).query({ search: q }).set('Authorization', auth(token));
      expect(((await list('%')).body as { count: number }).count).toBe(0);
      expect(((await list('_icket')).body as { count: number }).count).toBe(0);
      expect(((await list('icke')).body as { count: number }).count).toBe(1);
      const tooLong = await list('x'.repeat(MAX_FILTER_LENGTH + 1));
      expect(tooLong.status).toBe(400);
      expect(Object.keys(tooLong.body as object)).toEqual(['search']);
    });
  });
});
