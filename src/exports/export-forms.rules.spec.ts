import { Principal } from '../auth/principal';
import { PermissionSet } from '../auth/permissions';
import { cleanExportForm, exporterAt, parseDateFrame } from './export-forms.rules';
import { coverage, frameBounds } from './export-scope.rules';
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
    expect(parseDateFrame('/')).toEqual({ from: null, to: null });
    expect(parseDateFrame('2026-01-01/')).toEqual({ from: '2026-01-01', to: null });
    expect(parseDateFrame('2026-02-01/2026-01-01')).toBeNull();
    expect(parseDateFrame('yesterday')).toBeNull();
    expect(frameBounds('2026-03-29/2026-03-29', 'Europe/Berlin')).toEqual({
      from: new Date('2026-03-28T23:00:00Z'),
      before: new Date('2026-03-29T22:00:00Z'),
    });
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
    expect(coverage(reader, voucherlist, 9, events[0], events, {})).toBeNull();
    expect(coverage(reader, giftcardlist, 9, null, events, {})).toBeNull();
  });
});
