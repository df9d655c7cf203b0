import { DateTime } from 'luxon';

/** A date frame `start/end` (either side empty: open), as stored in the form data (compat §3.7). */
export interface DateFrame {
  from: string | null;
  to: string | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses `YYYY-MM-DD/YYYY-MM-DD` (either side may be empty); null when malformed ("Invalid date frame"). */
export function parseDateFrame(value: string): DateFrame | null {
  const parts = value.split('/');
  if (parts.length !== 2) return null;
  const [from, to] = parts.map((p) => p.trim());
  for (const p of [from, to]) if (p !== '' && (!DATE.test(p) || Number.isNaN(Date.parse(p)))) return null;
  if (from && to && from > to) return null;
  return { from: from || null, to: to || null };
}

/**
 * The UTC bounds of a `date_range` frame read in `zone`: from the start of its first day to the start of the
 * day after its last (either open).
 */
export function frameBounds(value: unknown, zone: string): { from: Date | null; before: Date | null } {
  const frame = typeof value === 'string' ? parseDateFrame(value) : null;
  if (!frame) return { from: null, before: null };
  const at = (iso: string, plusDays: number) =>
    DateTime.fromISO(iso, { zone }).plus({ days: plusDays }).startOf('day').toJSDate();
  return {
    from: frame.from ? at(frame.from, 0) : null,
    before: frame.to ? at(frame.to, 1) : null,
  };
}

type Form = Record<string, unknown>;

/**
 * Checks an exporter's form data field by field (compat §3.7, pretix's messages), collecting the cleaned values
 * in `out` and the field errors in `errors`; each exporter declares its fields with these checks.
 */
export class ExportFormChecker {
  readonly errors: Record<string, string[]> = {};
  readonly out: Form = {};
  constructor(private readonly input: Form) {}

  private fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  /** One of `choices` (default `fallback`). */
  choice(field: string, choices: readonly string[], fallback: string): void {
    const v = this.input[field] ?? fallback;
    if (typeof v !== 'string' || !choices.includes(v))
      this.fail(field, `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`);
    else this.out[field] = v;
  }

  /** A boolean (default `fallback`). */
  bool(field: string, fallback: boolean): void {
    const v = this.input[field] ?? fallback;
    if (typeof v !== 'boolean') this.fail(field, 'Must be a valid boolean.');
    else this.out[field] = v;
  }

  /** A date frame (`"/"` when empty, unless the default is null). */
  dateFrame(field: string, fallback: string | null): void {
    const v = this.input[field] === undefined ? fallback : this.input[field];
    if (v === null || v === '') {
      this.out[field] = fallback === null ? null : '/';
      return;
    }
    if (typeof v !== 'string' || !parseDateFrame(v)) this.fail(field, 'Invalid date frame');
    else this.out[field] = v;
  }

  /** A list of positive ids (default `[]`), de-duplicated and sorted. */
  ids(field: string): void {
    const v = this.input[field] ?? [];
    if (!Array.isArray(v) || !v.every((x) => Number.isInteger(x) && (x as number) > 0))
      this.fail(field, 'Expected a list of ids.');
    else this.out[field] = [...new Set(v as number[])].sort((a, b) => a - b);
  }

  /** A required positive id. */
  requiredId(field: string): void {
    const v = this.input[field];
    if (v === undefined || v === null) this.fail(field, 'This field is required.');
    else if (!Number.isInteger(v) || (v as number) <= 0) this.fail(field, 'A valid integer is required.');
    else this.out[field] = v;
  }

  /** A list of event slugs (default `[]`), de-duplicated and sorted. */
  slugs(field: string): void {
    const v = this.input[field] ?? [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== ''))
      this.fail(field, 'Expected a list of event slugs.');
    else this.out[field] = [...new Set(v as string[])].sort();
  }
}
