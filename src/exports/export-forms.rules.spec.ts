import { Principal } from '../auth/principal';
import { PermissionSet } from '../auth/permissions';
import { cleanExportForm, describeExportForm, exporterAt, resolveDateFrame } from './export-forms.rules';
import { coverage, frameBounds, offeredTo } from './export-scope.rules';
import { cleanRecipients } from './scheduled-export.rules';
import { CHECKIN_LIST_EXPORT } from '../checkin/checkin-list.exporter';
import { VOUCHER_LIST_EXPORT } from '../catalogue/vouchers/voucher-list.exporter';
import { GIFTCARD_LIST_EXPORT } from '../giftcards/giftcard-list.exporter';
import { ORDER_LIST_EXPORT } from '../orders/presentation/order-list.exporter';
import { QUOTA_LIST_EXPORT } from '../orders/quota-engine/quota-list.exporter';

// The exporters' declarations, as their owning contexts give them (the registry finds them at boot).
const exporters = [
  ORDER_LIST_EXPORT,
  CHECKIN_LIST_EXPORT,
  GIFTCARD_LIST_EXPORT,
  VOUCHER_LIST_EXPORT,
  QUOTA_LIST_EXPORT,
];
const orderlist = ORDER_LIST_EXPORT;
const checkinlist = CHECKIN_LIST_EXPORT;
const voucherlist = VOUCHER_LIST_EXPORT;
const giftcardlist = GIFTCARD_LIST_EXPORT;

describe('export form rules (compat §3.7)', () => {
  it('fills in the defaults of each exporter and drops unknown keys', () => {
    expect(cleanExportForm(orderlist, 'event', { x: 1 })).toEqual({
      form: { _format: 'xlsx', paid_only: false, include_payment_amounts: false, date_range: '/', items: [] },
    });
    expect(cleanExportForm(orderlist, 'organizer', {})).toEqual({
      form: {
        _format: 'xlsx',
        paid_only: false,
        include_payment_amounts: false,
        date_range: '/',
        items: [],
        events: [],
        event_date_range: '/',
      },
    });
    expect(cleanExportForm(checkinlist, 'event', {})).toEqual({
      errors: { list: ['This field is required.'] },
    });
    expect(cleanExportForm(orderlist, 'event', { items: [3, 1, 3] })).toEqual({
      form: expect.objectContaining({ items: [1, 3] }) as unknown,
    });
  });

  it('date frames: either side open, ISO dates, start not after end', () => {
    const parse = (v: string) => resolveDateFrame(v, 'UTC');
    expect(parse('/')).toEqual({ from: null, to: null });
    expect(parse('2026-01-01/')).toEqual({ from: '2026-01-01', to: null });
    expect(parse('2024-01-01/2024-12-31')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(parse('2026-02-01/2026-01-01')).toBeNull();
    expect(parse('2026-02-30/')).toBeNull();
    for (const bad of ['yesterday', 'custom', 'unset', '', 'a/b/c', 'toString'])
      expect(parse(bad)).toBeNull();
    expect(frameBounds('2026-03-29/2026-03-29', 'Europe/Berlin')).toEqual({
      from: new Date('2026-03-28T23:00:00Z'),
      before: new Date('2026-03-29T22:00:00Z'),
    });
  });

  it("pretix's relative date frames, resolved on the day of `now` in the zone (weeks start on Monday)", () => {
    // Wednesday 2026-05-13, 23:30 UTC: already Thursday the 14th in Berlin.
    const now = new Date('2026-05-13T23:30:00Z');
    const at = (v: string, zone = 'UTC') => resolveDateFrame(v, zone, now);
    expect(at('days_today')).toEqual({ from: '2026-05-13', to: '2026-05-13' });
    expect(at('days_today', 'Europe/Berlin')).toEqual({ from: '2026-05-14', to: '2026-05-14' });
    expect(at('days_yesterday')).toEqual({ from: '2026-05-12', to: '2026-05-12' });
    expect(at('days_last7')).toEqual({ from: '2026-05-07', to: '2026-05-13' });
    expect(at('days_last14')).toEqual({ from: '2026-04-30', to: '2026-05-13' });
    expect(at('days_tomorrow')).toEqual({ from: '2026-05-14', to: '2026-05-14' });
    expect(at('days_next7')).toEqual({ from: '2026-05-14', to: '2026-05-20' });
    expect(at('days_next14')).toEqual({ from: '2026-05-14', to: '2026-05-27' });
    expect(at('week_this')).toEqual({ from: '2026-05-11', to: '2026-05-17' });
    expect(at('week_to_date')).toEqual({ from: '2026-05-11', to: '2026-05-13' });
    expect(at('week_previous')).toEqual({ from: '2026-05-04', to: '2026-05-10' });
    expect(at('week_next')).toEqual({ from: '2026-05-18', to: '2026-05-24' });
    expect(at('month_this')).toEqual({ from: '2026-05-01', to: '2026-05-31' });
    expect(at('month_to_date')).toEqual({ from: '2026-05-01', to: '2026-05-13' });
    expect(at('month_previous')).toEqual({ from: '2026-04-01', to: '2026-04-30' });
    expect(at('month_next')).toEqual({ from: '2026-06-01', to: '2026-06-30' });
    expect(at('quarter_this')).toEqual({ from: '2026-04-01', to: '2026-06-30' });
    expect(at('quarter_to_date')).toEqual({ from: '2026-04-01', to: '2026-05-13' });
    expect(at('quarter_previous')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(at('quarter_next')).toEqual({ from: '2026-07-01', to: '2026-09-30' });
    expect(at('year_this')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(at('year_to_date')).toEqual({ from: '2026-01-01', to: '2026-05-13' });
    expect(at('year_previous')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(at('year_next')).toEqual({ from: '2027-01-01', to: '2027-12-31' });
    expect(at('future')).toEqual({ from: '2026-05-14', to: null });
    expect(at('past')).toEqual({ from: null, to: '2026-05-13' });
    expect(resolveDateFrame('quarter_next', 'UTC', new Date('2026-12-31T12:00:00Z'))).toEqual({
      from: '2027-01-01',
      to: '2027-03-31',
    });
    expect(resolveDateFrame('month_previous', 'UTC', new Date('2026-03-31T12:00:00Z'))).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(frameBounds('days_last7', 'Europe/Berlin', now)).toEqual({
      from: new Date('2026-05-07T22:00:00Z'),
      before: new Date('2026-05-14T22:00:00Z'),
    });
  });

  it("the documented scheduled export form, pretix's frames and its older date_from/date_to", () => {
    expect(cleanExportForm(orderlist, 'event', { _format: 'xlsx', date_range: 'week_this' })).toEqual({
      form: expect.objectContaining({ date_range: 'week_this' }) as unknown,
    });
    expect(cleanExportForm(orderlist, 'event', { date_range: 'custom' })).toEqual({
      errors: { date_range: ['Invalid date frame'] },
    });
    expect(cleanExportForm(orderlist, 'event', { date_from: '2020-01-01', date_to: '2023-12-31' })).toEqual({
      form: expect.objectContaining({ date_range: '2020-01-01/2023-12-31' }) as unknown,
    });
    expect(cleanExportForm(orderlist, 'event', { date_from: '2020-13-01' })).toEqual({
      errors: { date_from: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] },
    });
    expect(cleanExportForm(orderlist, 'organizer', { event_date_to: '2026-01-31' })).toEqual({
      form: expect.objectContaining({ event_date_range: '/2026-01-31', date_range: '/' }) as unknown,
    });
  });

  it('run mode: `_format` required, unknown keys refused under `fields` (pretix JobRunSerializer)', () => {
    expect(cleanExportForm(orderlist, 'event', {}, 'run')).toEqual({
      errors: { _format: ['This field is required.'] },
    });
    expect(cleanExportForm(orderlist, 'event', { _format: 'FOOBAR' }, 'run')).toEqual({
      errors: { _format: ['"FOOBAR" is not a valid choice.'] },
    });
    expect(cleanExportForm(orderlist, 'event', { _format: 'xlsx', foobar: 'x', a: 1 }, 'run')).toEqual({
      errors: { fields: ["Additional fields not allowed: ['a', 'foobar']."] },
    });
    expect(
      cleanExportForm(orderlist, 'event', { _format: 'csv', date_from: '2020-01-01', date_to: '' }, 'run'),
    ).toEqual({ form: expect.objectContaining({ date_range: '2020-01-01/' }) as unknown });
    expect(cleanExportForm(orderlist, 'event', { _format: 'csv', foobar: 1 }, 'store')).toEqual({
      form: expect.not.objectContaining({ foobar: 1 }) as unknown,
    });
  });

  it('input parameters as pretix describes them', () => {
    const fmt = { name: '_format', required: true, choices: ['xlsx', 'csv', 'json'] };
    expect(describeExportForm(orderlist, 'event')).toEqual([
      fmt,
      { name: 'paid_only', required: false },
      { name: 'include_payment_amounts', required: false },
      { name: 'group_multiple_choice', required: false },
      { name: 'date_range', required: false },
      { name: 'items', required: false },
    ]);
    expect(describeExportForm(orderlist, 'organizer').map((f) => f.name)).toEqual([
      'all_events',
      'events',
      '_format',
      'paid_only',
      'include_payment_amounts',
      'group_multiple_choice',
      'date_range',
      'event_date_range',
      'items',
    ]);
    expect(describeExportForm(checkinlist, 'event')).toEqual([
      fmt,
      { name: 'list', required: true },
      { name: 'paid_only', required: false },
    ]);
    expect(describeExportForm(giftcardlist, 'organizer')).toEqual([
      fmt,
      { name: 'testmode', required: false },
    ]);
  });

  it('exporters are offered per level', () => {
    expect(exporterAt(exporters, 'giftcardlist', 'event')).toBeNull();
    expect(exporterAt(exporters, 'giftcardlist', 'organizer')?.identifier).toBe('giftcardlist');
    expect(exporterAt(exporters, 'x', 'event')).toBeNull();
  });

  it('recipients: stripped, valid, at most 25', () => {
    expect(cleanRecipients(' a@x.org , b@y.org ,')).toEqual({ value: 'a@x.org,b@y.org' });
    expect(cleanRecipients('')).toEqual({ value: '' });
    expect(cleanRecipients('a@x.org,b')).toEqual({ error: 'Enter a valid email address.' });
    const many = Array.from({ length: 26 }, (_, i) => `r${i}@x.org`).join(',');
    expect(cleanRecipients(many)).toEqual({ error: 'Please enter less than 25 recipients.' });
  });

  it('coverage: the events a principal may read now; named events must all be readable', () => {
    const events = [
      { id: 1, slug: 'a', dateFrom: new Date('2026-05-01T10:00:00Z'), timezone: 'UTC' },
      { id: 2, slug: 'b', dateFrom: new Date('2026-07-01T10:00:00Z'), timezone: 'UTC' },
    ];
    const reader = new Principal({ kind: 'user', userId: 1 }, [
      {
        teamId: 1,
        teamName: 't',
        organizerId: 9,
        organizerSlug: 'o',
        allEvents: false,
        eventIds: new Set([1]),
        eventPermissions: new PermissionSet(false, new Set(['event.orders:read'])),
        organizerPermissions: new PermissionSet(false, new Set()),
      },
    ]);
    expect(coverage(reader, orderlist, 9, null, events, {})).toEqual({ eventIds: [1] });
    expect(coverage(reader, orderlist, 9, null, events, { events: ['b'] })).toBeNull();
    expect(coverage(reader, orderlist, 9, null, events, { event_date_range: '2026-06-01/' })).toEqual({
      eventIds: [],
    });
    expect(coverage(reader, orderlist, 9, null, events, { events: ['b'], all_events: true })).toEqual({
      eventIds: [1],
    });
    expect(coverage(reader, voucherlist, 9, events[0], events, {})).toBeNull();
    expect(coverage(reader, giftcardlist, 9, null, events, {})).toBeNull();
    // Offered: by the exporter's own permission; organizer level by any team holding it.
    expect(offeredTo(reader, orderlist, 9, 1)).toBe(true);
    expect(offeredTo(reader, orderlist, 9, 2)).toBe(false);
    expect(offeredTo(reader, voucherlist, 9, 1)).toBe(false);
    expect(offeredTo(reader, QUOTA_LIST_EXPORT, 9, 1)).toBe(true);
    expect(offeredTo(reader, orderlist, 9, null)).toBe(true);
    expect(offeredTo(reader, giftcardlist, 9, null)).toBe(false);
    expect(offeredTo(reader, orderlist, 8, null)).toBe(false);
  });
});
