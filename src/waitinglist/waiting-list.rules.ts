/**
 * Pure rules of the waiting list (pretix `WaitingListEntry`, `WaitingListSerializer`, `send_voucher`,
 * `assign_automatically`): messages, defaults, names, the voucher a sent entry gets. Unit-tested in
 * `waiting-list.rules.spec.ts`.
 */

/** pretix's messages (model `clean_*`, serializer `validate`, view `perform_update`/`perform_destroy`, `send_voucher`). */
export const WL_MESSAGES = {
  itemOfOtherEvent: 'The selected item does not belong to this event.',
  variationRequired: 'Please select a specific variation of this product.',
  subeventRequired: 'Subevent cannot be null for event series.',
  subeventOfOtherEvent: 'The subevent does not belong to this event.',
  duplicate:
    'You are already on this waiting list! We will notify you as soon as we have a ticket available for you.',
  available: 'This product is currently available.',
  changeAssigned: 'This entry can not be changed as it has already been assigned a voucher.',
  deleteAssigned: 'This entry can not be deleted as it has already been assigned a voucher.',
  notAvailable: 'This product is currently not available.',
  anonymized: 'This entry is anonymized and can no longer be used.',
  alreadySent: 'A voucher has already been sent to this person.',
} as const;

/** The waiting list settings of an event (wire names of `E/settings/`). */
export interface WaitingListSettingsJson {
  /** Whether the shop offers the waiting list (pretix `waiting_list_enabled`); the API accepts entries anyway. */
  waiting_list_enabled: boolean;
  /** Whether the scheduler sends vouchers automatically (pretix `waiting_list_auto`). */
  waiting_list_auto: boolean;
  /** Hours a waiting list voucher stays valid (pretix `waiting_list_hours`). */
  waiting_list_hours: number;
  /** Open entries one e-mail address may have per product (pretix `waiting_list_limit_per_user`). */
  waiting_list_limit_per_user: number;
}

/** pretix's defaults (`pretix/base/settings.py`). */
export const WAITING_LIST_DEFAULTS: WaitingListSettingsJson = {
  waiting_list_enabled: false,
  waiting_list_auto: true,
  waiting_list_hours: 48,
  waiting_list_limit_per_user: 1,
};

/** The event's default name scheme (pretix `name_scheme`, default `full`). */
export const NAME_SCHEME = 'full';

/**
 * The display name of `name_parts` (pretix `build_name` for the schemes served here): `full_name`, else the
 * legacy single string, else the other non-underscore parts joined by a space; null when empty.
 */
export function buildName(parts: Record<string, string> | null | undefined): string | null {
  if (!parts) return null;
  if (parts.full_name) return parts.full_name;
  if (parts._legacy) return parts._legacy;
  const joined = Object.entries(parts)
    .filter(([k, v]) => !k.startsWith('_') && typeof v === 'string' && v !== '')
    .map(([, v]) => v)
    .join(' ');
  return joined === '' ? null : joined;
}

/** `name_parts` as stored: with `_scheme` added when parts are given without one (pretix serializer). */
export function storedNameParts(parts: Record<string, string> | null | undefined): Record<string, string> {
  if (!parts || Object.keys(parts).length === 0) return {};
  return '_scheme' in parts ? { ...parts } : { ...parts, _scheme: NAME_SCHEME };
}

/** What a waiting list voucher is made of (pretix `WaitingListEntry.send_voucher`). */
export interface WaitingListVoucherInput {
  item: number;
  variation: number | null;
  subevent: number | null;
  max_usages: 1;
  valid_until: string;
  tag: 'waiting-list';
  comment: string;
  block_quota: true;
}

/**
 * The voucher sent to an entry: one use, valid for `hours` from `now`, blocking quota, tag `waiting-list`, the
 * comment naming the e-mail (and name) of the entry.
 */
export function waitingListVoucher(
  entry: {
    itemId: number;
    variationId: number | null;
    subeventId: number | null;
    email: string;
    name: string | null;
  },
  hours: number,
  now: Date,
): WaitingListVoucherInput {
  const who = entry.name ? `${entry.email} / ${entry.name}` : entry.email;
  return {
    item: entry.itemId,
    variation: entry.variationId,
    subevent: entry.subeventId,
    max_usages: 1,
    valid_until: new Date(now.getTime() + hours * 3600_000).toISOString(),
    tag: 'waiting-list',
    comment: `Automatically created from waiting list entry for ${who}`,
    block_quota: true,
  };
}

/** pretix's default waiting list mail (`mail_subject_waiting_list`, `mail_text_waiting_list`), in English. */
export function waitingListMail(ctx: {
  event: string;
  product: string;
  code: string;
  url: string;
  hours: number;
  validUntil: Date;
  name: string | null;
}): { subject: string; body: string } {
  return {
    subject: `You have been selected from the waitinglist for ${ctx.event}`,
    body: [
      `Hello${ctx.name ? ` ${ctx.name}` : ''},`,
      '',
      `you submitted yourself to the waiting list of ${ctx.event},`,
      `for the product ${ctx.product}.`,
      '',
      'We now have a ticket ready for you! You can redeem it in our ticket shop',
      `within the next ${ctx.hours} hours by entering the following voucher code:`,
      '',
      ctx.code,
      '',
      'Alternatively, you can just click on the following link:',
      '',
      `${ctx.url}?voucher=${ctx.code}`,
      '',
      'Please note that this link is only valid within the next ' +
        `${ctx.hours} hours (until ${ctx.validUntil.toISOString()})!`,
      'We will reassign the ticket to the next person on the list if you do not',
      'redeem the voucher within that timeframe.',
      '',
      'Best regards,',
      `Your ${ctx.event} team`,
    ].join('\n'),
  };
}

/**
 * Whether the presale of an event runs at `now` (pretix `presale_is_running`): started (`presale_start` passed or
 * none) and not ended (`presale_end`, else the event's end, else the end of its start day, UTC).
 */
export function presaleRunning(
  event: { presaleStart: Date | null; presaleEnd: Date | null; dateFrom: Date; dateTo: Date | null },
  now: Date,
): boolean {
  if (event.presaleStart && event.presaleStart > now) return false;
  if (event.presaleEnd) return now <= event.presaleEnd;
  if (event.dateTo) return now <= event.dateTo;
  return now.toISOString().slice(0, 10) <= event.dateFrom.toISOString().slice(0, 10);
}
