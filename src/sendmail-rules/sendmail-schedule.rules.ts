import { DateTime } from 'luxon';
import type { I18nString } from '../common/values/i18n';

/** The timing fields of a rule (compat §3.26). */
export interface RuleTiming {
  dateIsAbsolute: boolean;
  sendDate: Date | null;
  sendOffsetDays: number | null;
  /** `HH:MM` in the event's time zone. */
  sendOffsetTime: string | null;
  offsetToEventEnd: boolean;
  offsetIsAfter: boolean;
}

/**
 * When a rule sends for an event or date starting at `start` (ending at `end`, null: no end), as a UTC instant:
 * absolute rules at `send_date`; relative ones on the day `send_offset_days` before (or after, `offset_is_after`) the
 * start (or end, `offset_to_event_end`; the start when there is no end) in the time zone `zone`, at
 * `send_offset_time` there (correct across daylight-saving changes). null when the rule lacks its fields.
 */
export function ruleSendTime(rule: RuleTiming, start: Date, end: Date | null, zone: string): Date | null {
  if (rule.dateIsAbsolute) return rule.sendDate;
  if (rule.sendOffsetDays === null || rule.sendOffsetTime === null) return null;
  const base = rule.offsetToEventEnd ? (end ?? start) : start;
  const [hour, minute] = rule.sendOffsetTime.split(':').map(Number);
  const day = DateTime.fromJSDate(base, { zone }).startOf('day');
  const shifted = rule.offsetIsAfter
    ? day.plus({ days: rule.sendOffsetDays })
    : day.minus({ days: rule.sendOffsetDays });
  const at = shifted.set({ hour, minute, second: 0, millisecond: 0 });
  return at.isValid ? at.toJSDate() : null;
}

/** The text of `value` in `locale`, else English, else its first language ('' when empty). */
export function localized(value: I18nString, locale: string): string {
  const lang = locale.split('-')[0];
  return value[locale] ?? value[lang] ?? value.en ?? Object.values(value)[0] ?? '';
}

/** Values of the placeholders `{code}`, `{event}`, `{name}`, `{url}` (compat §3.26). */
export interface MailContext {
  code: string;
  event: string;
  name: string;
  url: string;
}

/**
 * Bounds of a rule's texts (README "Security", "Work a request may cause"): every mail of a rule renders them once
 * per recipient, and a placeholder may stand for a long value (the order URL, an attendee's name), so the texts
 * are capped: at most {@link MAIL_TEXT_MAX} characters per language (subject: {@link MAIL_SUBJECT_MAX}) and at
 * most {@link MAX_PLACEHOLDERS} known placeholders per text.
 */
export const MAIL_TEXT_MAX = 50_000;
export const MAIL_SUBJECT_MAX = 255;
export const MAX_PLACEHOLDERS = 100;

const PLACEHOLDER = /\{(code|event|name|url)\}/g;

/**
 * Checks a rule's subject or template (a string or `{lang: text}`) against the bounds above.
 * @returns the message for the field, or null (also for a value of the wrong type: the type check reports it)
 */
export function mailTextError(value: unknown, max: number): string | null {
  const texts =
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.values(value as Record<string, unknown>).filter((t): t is string => typeof t === 'string')
        : [];
  for (const text of texts) {
    if (text.length > max) return `Ensure this field has no more than ${max} characters.`;
    if ((text.match(PLACEHOLDER) ?? []).length > MAX_PLACEHOLDERS)
      return `Ensure this text has no more than ${MAX_PLACEHOLDERS} placeholders.`;
  }
  return null;
}

/** `text` with each known `{placeholder}` replaced; unknown ones are left as they are. */
export function fillPlaceholders(text: string, context: MailContext): string {
  return text.replace(PLACEHOLDER, (_m, key: keyof MailContext) => context[key]);
}
