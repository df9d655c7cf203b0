import { DateTime } from 'luxon';
import { i18nText, type I18nString } from '../../common/values/i18n';
import type { OrderPositionJson } from './order.presenter';
import { nameFromParts } from './order.presenter';

/** Product labels of a position (`ItemQueries.printLabelsOf`). */
interface ItemLabels {
  n: I18nString;
  d: I18nString | null;
  c: I18nString | null;
  v: I18nString | null;
  vd: I18nString | null;
}

/** Address data of a person: name parts, company, street, ZIP code, city, state, country (2 letters). */
interface Address {
  np: Record<string, string> | null;
  co: string | null;
  st: string | null;
  zc: string | null;
  ci: string | null;
  sa: string | null;
  cn: string | null;
}

/** What `PdfDataQueries.positionFacts` reads of a position beyond its wire form (JSON, dates as strings). */
export interface PositionPrintFacts {
  it: ItemLabels | null;
  se: {
    n: I18nString;
    f: string;
    t: string | null;
    a: string | null;
    l: I18nString | null;
    m: Record<string, string> | null;
  } | null;
  org: string | null;
  ord: { c: string; em: string | null; ph: string | null; dt: string; lc: string; ia: Address | null };
  par:
    | (Address & {
        em: string | null;
        seat: { name: string } | null;
        ans: { q: number; a: string }[];
      })
    | null;
  ad: { it: ItemLabels | null; pr: string; b: boolean; ci: boolean }[];
}

/** The event data ticket variables print (from the event row the request already loaded). */
export interface PrintEvent {
  name: I18nString;
  dateFrom: Date;
  dateTo: Date | null;
  dateAdmission: Date | null;
  location: I18nString | null;
  timezone: string;
  currency: string;
  metaData: Record<string, string>;
  hasSeatingPlan: boolean;
}

/** `[id, identifier, type]` of each question of the event (`PdfDataQueries.eventQuestions`). */
export type PrintQuestion = [number, string, string];

/** pretix's `pdf_data` of one position: text variables by name, plus `images` (key -> URL or null). */
export type PdfData = Record<string, string | Record<string, string | null>>;

/** Text of a multi-lingual string in `locale`, else its language, else the default language. */
function localizedText(value: I18nString | null | undefined, locale: string): string {
  if (!value) return '';
  return value[locale] ?? value[locale.split('-')[0]] ?? i18nText(value);
}

const SHORT_DATE = 'yyyy-MM-dd';
const SHORT_DATETIME = 'yyyy-MM-dd HH:mm';
const TIME = 'HH:mm';

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th'}`;
}

/** pretix's English DATE_FORMAT `May 31st, 2017` (and its parts for ranges). */
function longDate(d: DateTime, withYear = true, withMonth = true): string {
  const parts = [withMonth ? d.toFormat('MMMM') : '', ordinal(d.day)].filter(Boolean).join(' ');
  return withYear ? `${parts}, ${d.year}` : parts;
}

/** pretix's `get_date_range_display(force_show_end=True)`: one date, or `from – to` sharing month/year. */
function dateRange(from: DateTime, to: DateTime | null): string {
  if (!to || to.hasSame(from, 'day')) return longDate(from);
  if (to.hasSame(from, 'month')) return `${longDate(from, false)} – ${longDate(to, true, false)}`;
  if (to.hasSame(from, 'year')) return `${longDate(from, false)} – ${longDate(to)}`;
  return `${longDate(from)} – ${longDate(to)}`;
}

/** A money amount as pretix's `money_filter` shows it in the order's language (`€10.00`, `10,00 €`). */
function money(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** The English name of a two-letter country code ('' for none). */
function countryName(code: string | null | undefined): string {
  if (!code) return '';
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** pretix's `QuestionAnswer.to_string_i18n` as far as the stored text allows (booleans as Yes / No). */
function answerText(answer: string, type: string): string {
  if (type === 'B') return answer === 'True' ? 'Yes' : answer === 'False' ? 'No' : answer;
  return answer;
}

/** pretix's compressed add-on list: `Name`, `Name - Variation`, `2x Name` (in first-seen order). */
function addonList(addons: PositionPrintFacts['ad'], locale: string, onlyCheckedIn: boolean): string {
  const counts = new Map<string, number>();
  for (const a of addons.filter((x) => !onlyCheckedIn || x.ci)) {
    const name = localizedText(a.it?.n, locale);
    const label = a.it?.v ? `${name} - ${localizedText(a.it.v, locale)}` : name;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, n]) => (n > 1 ? `${n}x ${label}` : label)).join('\n');
}

/** `Mr Doe`-style salutation name: salutation/title and family name, else the full name. */
function salutationName(parts: Record<string, string> | null | undefined): string {
  if (!parts) return '';
  const family = parts.family_name;
  if (!family) return nameFromParts(parts) ?? '';
  return [parts.salutation && parts.salutation !== 'Mx' ? parts.salutation : '', parts.title, family]
    .filter(Boolean)
    .join(' ');
}

/** Name-part variables `<prefix>_<part>` for every part the name has (pretix: those of the name scheme). */
function nameParts(prefix: string, parts: Record<string, string> | null | undefined, out: PdfData): void {
  for (const [k, v] of Object.entries(parts ?? {})) {
    if (k !== '_scheme' && k !== '_legacy') out[`${prefix}_${k}`] = v ?? '';
  }
}

/**
 * pretix's `pdf_data` of a position (`PdfDataSerializer`, the default text variables of `pretix/base/pdf.py`):
 * ticket code, order, product, prices, attendee data (falling back to the parent position's for add-ons), event
 * or date (names in the order's language; date formats those of pretix's English locale), contact and invoice
 * address, add-on lists, organizer, print and purchase times, validity, seat, first scan, `question_<identifier>`
 * and `question_<id>` for every non-file question of the event (own answer, else the parent position's, else ''),
 * `meta:<property>` (the date's meta data over the event's), and `images`: `question_<identifier>` of every file
 * question, null (file answers are not stored). Variables this server has no data for are '' (`itemmeta:*`
 * absent; `organizer_info_text`, `event_info_text`, `program_times`, `medium_identifier`, gift card dates, and
 * seat zone / row / number).
 */
export function pdfDataOf(
  p: OrderPositionJson,
  facts: PositionPrintFacts,
  event: PrintEvent,
  questions: readonly PrintQuestion[],
  now: Date,
): PdfData {
  const locale = facts.ord.lc;
  const tz = event.timezone;
  const t = (v: I18nString | null | undefined) => localizedText(v, locale);
  const at = (iso: string | Date | null | undefined) =>
    iso ? DateTime.fromJSDate(new Date(iso)).setZone(tz) : null;
  const fmt = (d: DateTime | null, f: string) => (d ? d.toFormat(f) : '');
  const par = facts.par;
  const own = <K extends 'company' | 'street' | 'zipcode' | 'city' | 'state' | 'attendee_email'>(
    k: K,
    parent: string | null | undefined,
  ) => p[k] || parent || '';
  const item = facts.it;
  const variation = item?.v ? t(item.v) : '';
  const se = facts.se;
  const from = at(se ? se.f : event.dateFrom)!;
  const to = at(se ? se.t : event.dateTo);
  const admission = at(se ? se.a : event.dateAdmission);
  const ordered = at(facts.ord.dt);
  const printed = at(now);
  const ia = facts.ord.ia;
  const attendeeParts =
    p.attendee_name_parts && Object.keys(p.attendee_name_parts).length > 0
      ? p.attendee_name_parts
      : (par?.np ?? {});
  const addressLines = [
    p.attendee_name ?? nameFromParts(par?.np) ?? '',
    own('company', par?.co),
    own('street', par?.st),
    [own('zipcode', par?.zc), own('city', par?.ci), own('state', par?.sa)].filter(Boolean).join(' '),
    countryName(p.country || par?.cn),
  ].filter((l) => l.trim() !== '');
  const price = Number(p.price);
  const seat = p.seat ?? par?.seat ?? null;
  const firstScan = p.checkins[0];
  const out: PdfData = {
    secret: p.secret.length > 32 ? `${p.secret.slice(0, 30)}…` : p.secret,
    order: facts.ord.c,
    positionid: String(p.positionid),
    order_positionid: `${facts.ord.c}-${p.positionid}`,
    item: t(item?.n),
    variation,
    item_description: t(item?.d),
    itemvar: variation ? `${t(item?.n)} - ${variation}` : t(item?.n),
    itemvar_description: item?.v ? t(item.vd) : t(item?.d),
    item_category: t(item?.c),
    price: money(price, event.currency, locale),
    price_with_bundled: money(
      price + facts.ad.filter((a) => a.b).reduce((s, a) => s + Number(a.pr), 0),
      event.currency,
      locale,
    ),
    price_with_addons: money(price + facts.ad.reduce((s, a) => s + Number(a.pr), 0), event.currency, locale),
    attendee_name: p.attendee_name || nameFromParts(par?.np) || '',
    attendee_company: own('company', par?.co),
    attendee_address: addressLines.join('\n'),
    attendee_street: own('street', par?.st),
    attendee_zipcode: own('zipcode', par?.zc),
    attendee_city: own('city', par?.ci),
    attendee_state: own('state', par?.sa),
    attendee_country: countryName(p.country) || countryName(par?.cn),
    attendee_email: own('attendee_email', par?.em),
    pseudonymization_id: p.pseudonymization_id,
    event_name: se && t(se.n) ? t(se.n) : t(event.name),
    event_series_name: t(event.name),
    event_date: longDate(from),
    event_date_range: dateRange(from, to),
    event_begin: fmt(from, SHORT_DATETIME),
    event_begin_date: fmt(from, SHORT_DATE),
    event_begin_time: fmt(from, TIME),
    event_begin_weekday: fmt(from, 'cccc'),
    event_end: fmt(to, SHORT_DATETIME),
    event_end_date: fmt(to, SHORT_DATE),
    event_end_time: fmt(to, TIME),
    event_end_weekday: fmt(to, 'cccc'),
    event_admission: fmt(admission, SHORT_DATETIME),
    event_admission_time: fmt(admission, TIME),
    event_location: t(se?.l ?? event.location),
    telephone: facts.ord.ph ?? '',
    email: facts.ord.em ?? '',
    invoice_name: ia ? (nameFromParts(ia.np) ?? '') : '',
    invoice_company: ia?.co ?? '',
    invoice_street: ia?.st ?? '',
    invoice_zipcode: ia?.zc ?? '',
    invoice_city: ia?.ci ?? '',
    invoice_state: ia?.sa ?? '',
    invoice_country: countryName(ia?.cn),
    addons: addonList(facts.ad, locale, false),
    checked_in_addons: addonList(facts.ad, locale, true),
    organizer: facts.org ?? '',
    organizer_info_text: '',
    event_info_text: '',
    now_date: fmt(printed, SHORT_DATE),
    now_datetime: fmt(printed, SHORT_DATETIME),
    now_time: fmt(printed, TIME),
    purchase_date: fmt(ordered, SHORT_DATE),
    purchase_datetime: fmt(ordered, SHORT_DATETIME),
    purchase_time: fmt(ordered, TIME),
    valid_from_date: fmt(at(p.valid_from), SHORT_DATE),
    valid_from_datetime: fmt(at(p.valid_from), SHORT_DATETIME),
    valid_from_time: fmt(at(p.valid_from), TIME),
    valid_until_date: fmt(at(p.valid_until), SHORT_DATE),
    valid_until_datetime: fmt(at(p.valid_until), SHORT_DATETIME),
    valid_until_time: fmt(at(p.valid_until), TIME),
    program_times: '',
    medium_identifier: '',
    seat: seat ? seat.name : event.hasSeatingPlan ? 'General admission' : '',
    seat_zone: seat ? '' : event.hasSeatingPlan ? 'General admission' : '',
    seat_row: '',
    seat_number: '',
    first_scan: firstScan ? fmt(at(firstScan.datetime), SHORT_DATETIME) : '',
    giftcard_issuance_date: '',
    giftcard_expiry_date: '',
    attendee_name_for_salutation: salutationName(attendeeParts),
    invoice_name_for_salutation: salutationName(ia?.np),
  };
  nameParts('attendee_name', attendeeParts, out);
  nameParts('invoice_name', ia?.np, out);
  const answers = new Map<number, string>();
  for (const a of par?.ans ?? []) answers.set(a.q, a.a);
  for (const a of p.answers) answers.set(a.question, a.answer);
  const images: Record<string, string | null> = {};
  for (const [id, identifier, type] of questions) {
    if (type === 'F') {
      images[`question_${identifier}`] = imageUrl(answers.get(id), identifier);
      continue;
    }
    const value = answers.has(id) ? answerText(answers.get(id)!, type) : '';
    out[`question_${identifier}`] = value;
    out[`question_${id}`] = value;
  }
  for (const [k, v] of Object.entries({ ...event.metaData, ...(se?.m ?? {}) })) out[`meta:${k}`] = v;
  out.images = images;
  return out;
}

/**
 * The URL of `pdf_image/question_<identifier>/` for a position whose file answer is shown as its download URL
 * (`…/orderpositions/{id}/answer/{question}/`, `presentAnswers`); null without a file answer (pretix: `images` maps
 * a layout's image variable to the URL of its image, or null).
 */
function imageUrl(answer: string | undefined, identifier: string): string | null {
  const download = /\/answer\/\d+\/$/;
  return answer && download.test(answer)
    ? answer.replace(download, `/pdf_image/question_${identifier}/`)
    : null;
}

/** Whether the request asked for `pdf_data` (pretix: the last `pdf_data` value, case-insensitive, is `true`). */
export function wantsPdfData(raw: string | undefined): boolean {
  return raw?.toLowerCase() === 'true';
}

/** The event data variables print, from the event row (`seatingPlanId`: whether "General admission" shows). */
export function printEventOf(event: {
  name: I18nString;
  dateFrom: Date;
  dateTo: Date | null;
  dateAdmission: Date | null;
  location: I18nString | null;
  timezone: string;
  currency: string;
  metaData: Record<string, string> | null;
  seatingPlanId: number | null;
}): PrintEvent {
  return {
    name: event.name,
    dateFrom: event.dateFrom,
    dateTo: event.dateTo,
    dateAdmission: event.dateAdmission,
    location: event.location,
    timezone: event.timezone,
    currency: event.currency,
    metaData: event.metaData ?? {},
    hasSeatingPlan: event.seatingPlanId !== null,
  };
}

/** The position with `pdf_data` placed where pretix puts it (after `pseudonymization_id`). */
export function withPdfData<P extends { pseudonymization_id: string }>(
  position: P,
  data: PdfData,
): P & { pdf_data: PdfData } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(position)) {
    out[k] = v;
    if (k === 'pseudonymization_id') out.pdf_data = data;
  }
  if (!('pdf_data' in out)) out.pdf_data = data;
  return out as P & { pdf_data: PdfData };
}
