import { ApiDateTime, ApiEnum, ApiI18n, ApiInt, ApiIntList, ApiTime } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import type { I18nString } from '../common/values/i18n';
import { CHECKED_IN_STATUSES, SEND_TO } from './sendmail-rule.dto';
import type { SendmailRule } from './sendmail-rule.entity';

/** Wire form of a scheduled e-mail rule (spec "Scheduled e-mail rule"; compat §3.26). */
export class SendmailRuleJson {
  @ApiInt()
  id!: number;
  enabled!: boolean;
  @ApiI18n()
  subject!: I18nString;
  @ApiI18n()
  template!: I18nString;
  all_products!: boolean;
  @ApiIntList()
  limit_products!: number[];
  /** Deprecated: true when the rule includes every pending state. */
  include_pending!: boolean;
  restrict_to_status!: string[];
  @ApiEnum(CHECKED_IN_STATUSES, { nullable: true })
  checked_in_status!: string | null;
  date_is_absolute!: boolean;
  /** UTC datetime. */
  @ApiDateTime({ nullable: true })
  send_date!: string | null;
  @ApiInt({ nullable: true })
  send_offset_days!: number | null;
  /** `HH:MM`. */
  @ApiTime({ nullable: true })
  send_offset_time!: string | null;
  offset_to_event_end!: boolean;
  offset_is_after!: boolean;
  @ApiEnum(SEND_TO)
  send_to!: string;
}

/** Entity to wire object, field by field. */
export function toSendmailRuleJson(rule: SendmailRule): SendmailRuleJson {
  return {
    id: rule.id,
    enabled: rule.enabled,
    subject: rule.subject,
    template: rule.template,
    all_products: rule.allProducts,
    limit_products: [...rule.limitProducts],
    include_pending: rule.restrictToStatus.includes('n__not_pending_approval_and_not_valid_if_pending'),
    restrict_to_status: [...rule.restrictToStatus],
    checked_in_status: rule.checkedInStatus,
    date_is_absolute: rule.dateIsAbsolute,
    send_date: isoUtc(rule.sendDate),
    send_offset_days: rule.sendOffsetDays,
    send_offset_time: rule.sendOffsetTime,
    offset_to_event_end: rule.offsetToEventEnd,
    offset_is_after: rule.offsetIsAfter,
    send_to: rule.sendTo,
  };
}
