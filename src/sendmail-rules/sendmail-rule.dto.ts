import { PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsI18nString,
  IsInteger,
  IsIntList,
  IsStrList,
  IsTimeString,
  Nullable,
  Optional,
  Required,
  rule,
} from '../common/validation/fields';
import type { I18nString } from '../common/values/i18n';
import { MAIL_SUBJECT_MAX, MAIL_TEXT_MAX, mailTextError } from './sendmail-schedule.rules';

/** Order states a rule may be restricted to (compat §3.26). */
export const RULE_STATUSES = [
  'p',
  'e',
  'c',
  'n__valid_if_pending',
  'n__pending_overdue',
  'n__pending_approval',
  'n__not_pending_approval_and_not_valid_if_pending',
] as const;
export const SEND_TO = ['orders', 'attendees', 'both'] as const;
export const CHECKED_IN_STATUSES = ['checked_in', 'no_checkin'] as const;

/** Body of `POST E/sendmail_rules/` and `PUT E/sendmail_rules/{id}/` (compat §3.26). */
export class CreateSendmailRuleDto {
  /** Mail subject (at most 255 characters per language and 100 placeholders). */
  @Required()
  @IsI18nString()
  @rule('mailSubject', (v) => mailTextError(v, MAIL_SUBJECT_MAX))
  subject!: string | I18nString;

  /** Mail body; placeholders `{code}`, `{event}`, `{name}`, `{url}` (at most 50,000 characters per language and 100 placeholders). */
  @Required()
  @IsI18nString()
  @rule('mailTemplate', (v) => mailTextError(v, MAIL_TEXT_MAX))
  template!: string | I18nString;

  /** Default true. */
  @Optional()
  @IsBool()
  enabled?: boolean;

  /** Default true; false needs `limit_products`. */
  @Optional()
  @IsBool()
  all_products?: boolean;

  /** Item ids of this event (default []). */
  @Optional()
  @IsIntList()
  limit_products?: number[];

  /** Deprecated: true stands for all pending states too, false for `["p", "n__valid_if_pending"]`. */
  @Optional()
  @IsBool()
  include_pending?: boolean;

  /** Default `["p", "n__valid_if_pending"]`; at least one value. */
  @Optional()
  @IsStrList()
  restrict_to_status?: string[];

  /** null (default: any), `checked_in` or `no_checkin`. */
  @Nullable()
  @IsChoice(CHECKED_IN_STATUSES)
  checked_in_status?: string | null;

  /** Default true: send at `send_date`; false: at an offset from the event's (or date's) start or end. */
  @Optional()
  @IsBool()
  date_is_absolute?: boolean;

  /** UTC datetime; required for absolute rules. */
  @Nullable()
  @IsDateTimeString()
  send_date?: string | null;

  /** Whole days before or after the event; required (non-zero) for relative rules. */
  @Nullable()
  @IsInteger({ min: 0, max: 3650 })
  send_offset_days?: number | null;

  /** `HH:MM` in the event's time zone; required for relative rules. */
  @Nullable()
  @IsTimeString()
  send_offset_time?: string | null;

  /** Offset counted from the end of the event instead of its start (default false). */
  @Optional()
  @IsBool()
  offset_to_event_end?: boolean;

  /** Offset after the event instead of before (default false). */
  @Optional()
  @IsBool()
  offset_is_after?: boolean;

  /** `orders` (default), `attendees` or `both`. */
  @Optional()
  @IsChoice(SEND_TO)
  send_to?: string;
}

/** Body of `PATCH E/sendmail_rules/{id}/`: every field optional. */
export class UpdateSendmailRuleDto extends PartialType(CreateSendmailRuleDto, {
  skipNullProperties: false,
}) {}
