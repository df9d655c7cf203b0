import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiInt, ApiTime } from '../common/http/api-schemas';
import type { ScheduledExport } from './scheduled-export.entity';

/** Wire form of a scheduled export (spec "Scheduled export"; compat §3.7). */
export class ScheduledExportJson {
  @ApiInt()
  id!: number;
  /** E-mail of the creating user (read-only). */
  owner!: string;
  export_identifier!: string;
  @ApiProperty({ type: 'object', additionalProperties: true })
  export_form_data!: Record<string, unknown>;
  locale!: string;
  mail_additional_recipients!: string;
  mail_additional_recipients_cc!: string;
  mail_additional_recipients_bcc!: string;
  mail_subject!: string;
  mail_template!: string;
  schedule_rrule!: string;
  @ApiTime()
  schedule_rrule_time!: string;
  /** Organizer-level exports only. */
  timezone?: string;
  /** Next run (read-only); null when the rule has no further occurrence. */
  @ApiDateTime({ nullable: true })
  schedule_next_run!: string | null;
  /** Consecutive failures (read-only); at 5 the schedule stops. */
  @ApiInt()
  error_counter!: number;
}

/** Entity to wire object; `ownerEmail` comes from the users' table, `timezone` only at organizer level. */
export function toScheduledExportJson(e: ScheduledExport, ownerEmail: string): ScheduledExportJson {
  return {
    id: e.id,
    owner: ownerEmail,
    export_identifier: e.exportIdentifier,
    export_form_data: e.exportFormData,
    locale: e.locale,
    mail_additional_recipients: e.mailAdditionalRecipients,
    mail_additional_recipients_cc: e.mailAdditionalRecipientsCc,
    mail_additional_recipients_bcc: e.mailAdditionalRecipientsBcc,
    mail_subject: e.mailSubject,
    mail_template: e.mailTemplate,
    schedule_rrule: e.scheduleRrule,
    schedule_rrule_time: e.scheduleRruleTime.length === 5 ? `${e.scheduleRruleTime}:00` : e.scheduleRruleTime,
    ...(e.eventId === null ? { timezone: e.timezone } : {}),
    schedule_next_run: e.scheduleNextRun ? e.scheduleNextRun.toISOString() : null,
    error_counter: e.errorCounter,
  };
}
