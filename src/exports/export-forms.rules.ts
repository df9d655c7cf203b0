import type { FieldErrors } from '../common/errors';
import { ExportFormChecker } from '../tasks/export-form';
import type { ExporterDeclaration, ExportLevel } from '../tasks/exporter';

export type { ExportLevel } from '../tasks/exporter';
export { parseDateFrame } from '../tasks/export-form';
export type { DateFrame } from '../tasks/export-form';

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

/**
 * Validates an exporter's form data and fills in its defaults, which are stored with a scheduled export
 * (compat §3.7): `_format` (`xlsx` default, `csv`, `json`) for every exporter, then the exporter's own fields as
 * its declaration checks them ({@link ExporterDeclaration.form}). Unknown keys are dropped.
 * @returns the cleaned form, or field errors (`{"field": ["message"]}`) for the `export_form_data` field
 */
export function cleanExportForm(
  exporter: ExporterDeclaration,
  level: ExportLevel,
  input: Record<string, unknown>,
): { form: Record<string, unknown> } | { errors: FieldErrors } {
  const c = new ExportFormChecker(input);
  c.choice('_format', EXPORT_FORMATS, 'xlsx');
  exporter.form(c, level);
  return Object.keys(c.errors).length > 0 ? { errors: c.errors } : { form: c.out };
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
