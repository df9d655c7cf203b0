import type { FieldErrors } from '../common/errors';
import { ExportFormChecker, FormFieldDescription, FormMode } from '../tasks/export-form';
import type { ExporterDeclaration, ExportLevel } from '../tasks/exporter';

export type { ExportLevel } from '../tasks/exporter';
export { resolveDateFrame } from '../tasks/export-form';
export type { DateFrame, FormFieldDescription, FormMode } from '../tasks/export-form';

/** File formats of the exporters (`_format`). */
export const EXPORT_FORMATS = ['xlsx', 'csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The identifiers of the exporters of this service (compat §3.7). Each has exactly one provider
 * (`@Exporter('<identifier>')` in its owning context), which the boot check enforces.
 */
export const EXPORTER_IDENTIFIERS: readonly string[] = [
  'orderlist',
  'checkinlist',
  'giftcardlist',
  'voucherlist',
  'quotas',
];

/** Whether an organizer-level exporter covers several events (pretix's multi-event exporters). */
const multiEvent = (exporter: ExporterDeclaration, level: ExportLevel): boolean =>
  level === 'organizer' && exporter.permission.event !== undefined;

function check(
  exporter: ExporterDeclaration,
  level: ExportLevel,
  input: Record<string, unknown>,
  mode: FormMode,
): ExportFormChecker {
  const c = new ExportFormChecker(input, mode);
  if (multiEvent(exporter, level)) {
    // pretix's JobRunSerializer adds these two to every multi-event exporter, before its own fields.
    c.bool('all_events', null);
    c.slugs('events');
  }
  c.choice('_format', EXPORT_FORMATS, mode === 'run' ? null : 'xlsx');
  exporter.form(c, level);
  c.finish();
  return c;
}

/**
 * Validates an exporter's form data and fills in its defaults (compat §3.7): organizer-level multi-event
 * exporters take `all_events` (boolean, kept only when sent) and `events` (slugs, `[]` = all), every exporter
 * `_format` (`xlsx`, `csv`, `json`), then the exporter's own fields as its declaration checks them
 * ({@link ExporterDeclaration.form}). `store` (scheduled exports): `_format` defaults to `xlsx` and unknown keys
 * are dropped; `run` (`…/exporters/{id}/run/`): `_format` is required and unknown keys are refused under `fields`
 * (pretix's `JobRunSerializer`).
 * @returns the cleaned form, or field errors (`{"field": ["message"]}`)
 */
export function cleanExportForm(
  exporter: ExporterDeclaration,
  level: ExportLevel,
  input: Record<string, unknown>,
  mode: FormMode = 'store',
): { form: Record<string, unknown> } | { errors: FieldErrors } {
  const c = check(exporter, level, input, mode);
  return Object.keys(c.errors).length > 0 ? { errors: c.errors } : { form: c.out };
}

/**
 * The input parameters of an exporter at a level, in order, as pretix's exporter list renders them
 * (`[{"name", "required", "choices"?}]`; `choices` only for choice fields).
 */
export function describeExportForm(
  exporter: ExporterDeclaration,
  level: ExportLevel,
): FormFieldDescription[] {
  return check(exporter, level, {}, 'run').fields;
}

/**
 * The exporter of `exporters` with this identifier offered at this level, or null (`"x" is not a valid
 * choice.`).
 */
export function exporterAt<T extends ExporterDeclaration>(
  exporters: readonly T[],
  identifier: unknown,
  level: ExportLevel,
): T | null {
  return exporters.find((e) => e.identifier === identifier && e.levels.includes(level)) ?? null;
}
