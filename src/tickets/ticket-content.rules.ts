import { createHash } from 'crypto';
import { DateTime } from 'luxon';
import { i18nText, type I18nString } from '../common/values/i18n';
import type { OrderJson, OrderPositionJson } from '../orders/presentation/order.presenter';

/** Bumped when the layout changes, so cached tickets of the old layout are rendered again. */
export const TICKET_LAYOUT_VERSION = 1;

/** What one ticket page shows (all texts already in the order's language and the event's time zone). */
export interface TicketPage {
  event: string;
  /** Start (and end) of the event or date, e.g. `2027-05-01 19:00 – 23:00 (Europe/Berlin)`. */
  date: string;
  location: string | null;
  product: string;
  variation: string | null;
  attendee: string | null;
  seat: string | null;
  orderCode: string;
  positionid: number;
  /** The ticket secret, encoded in the QR code. */
  secret: string;
}

/** When and where a ticket is valid: the date of the series, else the event. */
export interface TicketDate {
  name: I18nString | null;
  from: Date;
  to: Date | null;
  location: I18nString | null;
}

/** Names the pages are built from besides the order. */
export interface TicketLabels {
  items: ReadonlyMap<number, I18nString>;
  variations: ReadonlyMap<number, I18nString>;
  subevents: ReadonlyMap<number, TicketDate>;
  event: TicketDate & { name: I18nString; timezone: string };
}

/** Text of a multi-lingual string in `locale`, falling back to its language, then to the default language. */
export function localizedText(value: I18nString | null | undefined, locale: string): string {
  if (!value) return '';
  return value[locale] ?? value[locale.split('-')[0]] ?? i18nText(value);
}

/** `from` (and `to`) in the time zone `tz`: `yyyy-MM-dd HH:mm[ – HH:mm | – yyyy-MM-dd HH:mm] (tz)`. */
export function ticketDateText(from: Date, to: Date | null, tz: string): string {
  const start = DateTime.fromJSDate(from).setZone(tz);
  let text = start.toFormat('yyyy-MM-dd HH:mm');
  if (to) {
    const end = DateTime.fromJSDate(to).setZone(tz);
    text += end.hasSame(start, 'day')
      ? ` – ${end.toFormat('HH:mm')}`
      : ` – ${end.toFormat('yyyy-MM-dd HH:mm')}`;
  }
  return `${text} (${tz})`;
}

/** The page of one position of `order` (product, variation, date of the series, attendee, seat, secret). */
export function ticketPage(order: OrderJson, p: OrderPositionJson, labels: TicketLabels): TicketPage {
  const locale = order.locale;
  const date = p.subevent !== null ? labels.subevents.get(p.subevent) : undefined;
  const eventName = localizedText(labels.event.name, locale);
  const dateName = date?.name ? localizedText(date.name, locale) : '';
  const when = date ?? labels.event;
  return {
    event: dateName && dateName !== eventName ? `${eventName} – ${dateName}` : eventName,
    date: ticketDateText(when.from, when.to, labels.event.timezone),
    location: localizedText(when.location, locale) || null,
    product: localizedText(labels.items.get(p.item), locale) || `#${p.item}`,
    variation:
      p.variation !== null ? localizedText(labels.variations.get(p.variation), locale) || null : null,
    attendee: p.attendee_name,
    seat: p.seat ? p.seat.name || p.seat.seat_guid : null,
    orderCode: order.code,
    positionid: p.positionid,
    secret: p.secret,
  };
}

/**
 * The cache key of a ticket file: SHA-256 (hex) of the output, the layout version and every field the pages
 * show (the secret included), so any change of what is printed gives another key.
 */
export function ticketContentKey(output: string, pages: readonly TicketPage[]): string {
  return createHash('sha256')
    .update(JSON.stringify({ output, layout: TICKET_LAYOUT_VERSION, pages }))
    .digest('hex');
}

/** pretix's file names: `<EVENT>-<code>-<output>.pdf` (order) and `<EVENT>-<code>-<positionid>-<output>.pdf`. */
export function ticketFilename(
  eventSlug: string,
  code: string,
  positionid: number | null,
  output: string,
): string {
  const parts = [eventSlug.toUpperCase(), code, ...(positionid === null ? [] : [String(positionid)]), output];
  return `${parts.join('-')}.pdf`;
}
