import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsJsonObject, IsStr, IsTimeString, Optional, Required } from '../common/validation/fields';

/**
 * Body of `POST .../scheduled_exports/` and `PUT .../scheduled_exports/{id}/` (spec "Scheduled export"; compat
 * §3.7). The exporter, its form data, the locale, the rule and the time zone are checked by the service, which
 * knows the level (event or organizer).
 */
export class CreateScheduledExportDto {
  /** Identifier of the exporter: `orderlist`, `checkinlist`, `voucherlist`, `quotas` (event level); `orderlist`, `giftcardlist` (organizer level). */
  @Required()
  @IsStr({ max: 190, blank: false })
  export_identifier!: string;

  /** Input of the exporter (`_format`: `xlsx`, `csv` or `json`, and its own fields); defaults are filled in and stored. */
  @Optional()
  @IsJsonObject()
  @ApiProperty({ type: 'object', additionalProperties: true })
  export_form_data?: Record<string, unknown>;

  /** Language of the export (default `en`). */
  @Optional()
  @IsStr({ max: 16 })
  locale?: string;

  /** Comma-separated e-mail addresses (at most 25), or empty. */
  @Optional()
  @IsStr()
  mail_additional_recipients?: string;

  /** Same, copy. */
  @Optional()
  @IsStr()
  mail_additional_recipients_cc?: string;

  /** Same, blind copy. */
  @Optional()
  @IsStr()
  mail_additional_recipients_bcc?: string;

  /** Subject of the mail; no variables. */
  @Optional()
  @IsStr({ max: 255 })
  mail_subject?: string;

  /** Text of the mail; no variables. */
  @Optional()
  @IsStr()
  mail_template?: string;

  /** RFC 5545 recurrence, e.g. `DTSTART:20230118T000000\nRRULE:FREQ=WEEKLY;BYDAY=TU,WE,TH`; one rule, at most once a day. */
  @Required()
  @IsStr({ max: 2000, blank: false })
  schedule_rrule!: string;

  /** Time of day of the run (`HH:MM:SS`), local time of the event or of `timezone`. */
  @Required()
  @IsTimeString()
  schedule_rrule_time!: string;

  /** IANA time zone of an organizer-level schedule (default `UTC`); not accepted at event level. */
  @Optional()
  @IsStr({ max: 64 })
  timezone?: string;
}

/** Body of `PATCH .../scheduled_exports/{id}/`: every field optional, none nullable (`null` → 400 naming it). */
export class UpdateScheduledExportDto extends PartialType(CreateScheduledExportDto, {
  skipNullProperties: false,
}) {}
