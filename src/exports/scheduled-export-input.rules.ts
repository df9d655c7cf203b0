import { IANAZone } from 'luxon';
import type { ExporterDeclaration } from '../tasks/exporter';
import { cleanExportForm, exporterAt, ExportLevel } from './export-forms.rules';
import { cleanRecipients } from './scheduled-export.rules';
import { boundsError, nextRun, parseSchedule, parseTimeOfDay, RRULE_MESSAGES } from './schedule.rules';

/** Languages an export may be written in (compat §3.7 `locale`). */
export const EXPORT_LOCALES = [
  'en',
  'de',
  'de-informal',
  'fr',
  'nl',
  'es',
  'it',
  'da',
  'pt',
  'pl',
  'cs',
] as const;

/** A scheduled export's input after merging the body over the stored (PATCH) or default (POST, PUT) values. */
export interface ScheduledExportInput {
  export_identifier: string;
  export_form_data: Record<string, unknown>;
  locale: string;
  mail_additional_recipients: string;
  mail_additional_recipients_cc: string;
  mail_additional_recipients_bcc: string;
  mail_subject: string;
  mail_template: string;
  schedule_rrule: string;
  schedule_rrule_time: string;
  timezone: string;
}

/** Defaults of the optional fields (POST, and PUT resets omitted fields to them). */
export const SCHEDULED_EXPORT_DEFAULTS = {
  export_form_data: {},
  locale: 'en',
  mail_additional_recipients: '',
  mail_additional_recipients_cc: '',
  mail_additional_recipients_bcc: '',
  mail_subject: '',
  mail_template: '',
  timezone: 'UTC',
};

/**
 * Validates a scheduled export's merged input at its level (compat §3.7) and cleans it: the exporter must be
 * offered there (`"x" is not a valid choice.`), its form data is checked and completed with the exporter's
 * defaults (errors nested under `export_form_data`), `locale` and organizer-level `timezone` are choices, the
 * recipients lists are cleaned (valid addresses, at most 25), the rule is parsed (pretix's messages) and the time
 * normalised to `HH:MM:SS`; a rule with no run within the next `SCHEDULE_HORIZON_YEARS` (5) years after `now` is
 * refused, and so is a COUNT rule starting more than 10 years before `now` (README "Security"; the search is
 * bounded, see `nextRun`).
 * @returns the cleaned input, or `{field: [messages]}` with every error found
 */
export function cleanScheduledExport(
  input: ScheduledExportInput,
  level: ExportLevel,
  exporters: readonly ExporterDeclaration[],
  now = new Date(),
): { value: ScheduledExportInput } | { errors: Record<string, unknown> } {
  const errors: Record<string, unknown> = {};
  const out = { ...input };
  const exporter = exporterAt(exporters, input.export_identifier, level);
  if (!exporter) {
    errors.export_identifier = [`"${input.export_identifier}" is not a valid choice.`];
  } else {
    const form = cleanExportForm(exporter, level, input.export_form_data);
    if ('errors' in form) errors.export_form_data = form.errors;
    else out.export_form_data = form.form;
  }
  if (!(EXPORT_LOCALES as readonly string[]).includes(input.locale))
    errors.locale = [`"${input.locale}" is not a valid choice.`];
  for (const field of [
    'mail_additional_recipients',
    'mail_additional_recipients_cc',
    'mail_additional_recipients_bcc',
  ] as const) {
    const cleaned = cleanRecipients(input[field]);
    if ('error' in cleaned) errors[field] = [cleaned.error];
    else out[field] = cleaned.value;
  }
  const rule = parseSchedule(input.schedule_rrule);
  if ('error' in rule) errors.schedule_rrule = [rule.error];
  const time = parseTimeOfDay(input.schedule_rrule_time);
  if (!time)
    errors.schedule_rrule_time = [
      'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].',
    ];
  else
    out.schedule_rrule_time = [time.hour, time.minute, time.second]
      .map((n) => String(n).padStart(2, '0'))
      .join(':');
  const zoneOk = IANAZone.isValidZone(input.timezone);
  if (level === 'organizer' && !zoneOk) errors.timezone = [`"${input.timezone}" is not a valid choice.`];
  const tooOld = 'rule' in rule ? boundsError(rule.rule, now) : null;
  if (tooOld) errors.schedule_rrule = [tooOld];
  else if (
    'rule' in rule &&
    time &&
    zoneOk &&
    !nextRun(rule.rule, out.schedule_rrule_time, input.timezone, now)
  )
    errors.schedule_rrule = [RRULE_MESSAGES.noOccurrence];
  return Object.keys(errors).length > 0 ? { errors } : { value: out };
}
