import type { OrderPositionJson } from './order.presenter';
import { pdfDataOf, PositionPrintFacts, PrintEvent, wantsPdfData, withPdfData } from './pdf-data.rules';

/** The variables of pretix's ticket layouts for one position (the e2e spec covers the endpoints). */
describe('pdfDataOf', () => {
  const event: PrintEvent = {
    name: { en: 'Conf' },
    dateFrom: new Date('2030-06-01T08:00:00Z'),
    dateTo: new Date('2030-06-03T16:00:00Z'),
    dateAdmission: null,
    location: null,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    metaData: { room: 'A' },
    hasSeatingPlan: false,
  };
  const position = {
    id: 7,
    positionid: 2,
    price: '12.50',
    secret: 'x'.repeat(40),
    attendee_name: null,
    attendee_name_parts: {},
    company: null,
    street: null,
    zipcode: null,
    city: null,
    country: null,
    state: null,
    attendee_email: null,
    pseudonymization_id: 'PSEUDO',
    valid_from: null,
    valid_until: null,
    seat: null,
    checkins: [{ datetime: '2030-06-01T09:30:00Z' }],
    answers: [{ question: 1, answer: 'True' }],
  } as unknown as OrderPositionJson;
  const facts: PositionPrintFacts = {
    it: { n: { en: 'Workshop' }, d: null, c: null, v: { en: 'Morning' }, vd: { en: 'Early' } },
    se: null,
    org: 'Org',
    ord: { c: 'ABC12', em: null, ph: null, dt: '2030-01-01T12:00:00Z', lc: 'en', ia: null },
    par: {
      np: { given_name: 'Pat', family_name: 'Doe' },
      co: 'ACME',
      st: null,
      zc: null,
      ci: 'Rome',
      sa: null,
      cn: 'IT',
      em: 'pat@example.org',
      seat: null,
      ans: [{ q: 2, a: 'from parent' }],
    },
    ad: [
      { it: { n: { en: 'Lunch' }, d: null, c: null, v: null, vd: null }, pr: '5.00', b: true, ci: false },
      { it: { n: { en: 'Lunch' }, d: null, c: null, v: null, vd: null }, pr: '5.00', b: false, ci: true },
    ],
  };
  const data = pdfDataOf(
    position,
    facts,
    event,
    [
      [1, 'VIP', 'B'],
      [2, 'FOOD', 'S'],
      [3, 'PIC', 'F'],
    ],
    new Date('2030-05-01T10:00:00Z'),
  );

  it('prints product, prices, order and the shortened secret', () => {
    expect(data).toMatchObject({
      secret: `${'x'.repeat(30)}…`,
      order_positionid: 'ABC12-2',
      itemvar: 'Workshop - Morning',
      itemvar_description: 'Early',
      price: '€12.50',
      price_with_bundled: '€17.50',
      price_with_addons: '€22.50',
      addons: '2x Lunch',
      checked_in_addons: 'Lunch',
    });
  });

  it("falls back to the parent position's attendee data and answers", () => {
    expect(data).toMatchObject({
      attendee_name: 'Pat Doe',
      attendee_name_given_name: 'Pat',
      attendee_company: 'ACME',
      attendee_city: 'Rome',
      attendee_country: 'Italy',
      attendee_email: 'pat@example.org',
      question_VIP: 'Yes',
      question_1: 'Yes',
      question_FOOD: 'from parent',
    });
  });

  it('formats dates in the event time zone, with first scan, meta data and file questions as images', () => {
    expect(data).toMatchObject({
      event_begin: '2030-06-01 10:00',
      event_end_date: '2030-06-03',
      event_date_range: 'June 1st – 3rd, 2030',
      purchase_datetime: '2030-01-01 13:00',
      now_date: '2030-05-01',
      first_scan: '2030-06-01 11:30',
      'meta:room': 'A',
      images: { question_PIC: null },
    });
    expect(data).not.toHaveProperty('question_PIC');
  });

  it('places pdf_data after pseudonymization_id; pdf_data=true is case-insensitive', () => {
    const keys = Object.keys(withPdfData({ a: 1, pseudonymization_id: 'p', b: 2 }, {}));
    expect(keys).toEqual(['a', 'pseudonymization_id', 'pdf_data', 'b']);
    expect([wantsPdfData('TRUE'), wantsPdfData('1'), wantsPdfData(undefined)]).toEqual([true, false, false]);
  });
});
