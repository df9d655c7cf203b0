import { DateTime } from 'luxon';
import { resolveDateFrame } from './date-frames';

export type { DateFrame } from './date-frames';
export { DATE_FRAME_IDENTIFIERS, resolveDateFrame } from './date-frames';

/**
 * The UTC bounds of a `date_range` frame (pretix's relative frames resolved on the day `now` falls on in `zone`,
 * or `YYYY-MM-DD/YYYY-MM-DD`) read in `zone`: from the start of its first day to the start of the day after its
 * last (either open; both open for an empty or invalid frame).
 */
export function frameBounds(
  value: unknown,
  zone: string,
  now: Date = new Date(),
): { from: Date | null; before: Date | null } {
  const frame = typeof value === 'string' ? resolveDateFrame(value, zone, now) : null;
  if (!frame) return { from: null, before: null };
  const at = (iso: string, plusDays: number) =>
    DateTime.fromISO(iso, { zone }).plus({ days: plusDays }).startOf('day').toJSDate();
  return {
    from: frame.from ? at(frame.from, 0) : null,
    before: frame.to ? at(frame.to, 1) : null,
  };
}

type Form = Record<string, unknown>;

/** One input parameter of an exporter as pretix's exporter list describes it (`input_parameters`). */
export interface FormFieldDescription {
  name: string;
  required: boolean;
  /** Only for choice fields. */
  choices?: string[];
}

/**
 * How a form is checked: `store` (scheduled exports: every field optional, defaults filled in, unknown keys
 * dropped, as pretix's `JobRunSerializer.to_internal_value`) or `run` (`…/exporters/{id}/run/`: fields without a
 * default are required and unknown keys refused, as pretix's `JobRunSerializer.is_valid`).
 */
export type FormMode = 'store' | 'run';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Checks an exporter's form data field by field (compat §3.7, pretix's messages), collecting the cleaned values
 * in `out`, the field errors in `errors` and the description of every field checked in `fields` (in order);
 * each exporter declares its fields with these checks.
 */
export class ExportFormChecker {
  readonly errors: Record<string, string[]> = {};
  readonly out: Form = {};
  readonly fields: FormFieldDescription[] = [];
  /** Input keys consumed by a field of another name (pretix's legacy `date_from`/`date_to`). */
  private readonly consumed = new Set<string>();

  constructor(
    private readonly input: Form,
    readonly mode: FormMode = 'store',
  ) {}

  private fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  /** One of `choices`; `fallback` null: required (`This field is required.` when absent). */
  choice(field: string, choices: readonly string[], fallback: string | null): void {
    this.fields.push({ name: field, required: fallback === null, choices: [...choices] });
    const v = this.input[field] ?? fallback;
    if (v === null) this.fail(field, 'This field is required.');
    else if (typeof v !== 'string' || !choices.includes(v))
      this.fail(field, `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`);
    else this.out[field] = v;
  }

  /** A boolean (default `fallback`; null: kept only when sent). */
  bool(field: string, fallback: boolean | null): void {
    this.fields.push({ name: field, required: false });
    const v = this.input[field] ?? fallback;
    if (v === null) return;
    if (typeof v !== 'boolean') this.fail(field, 'Must be a valid boolean.');
    else this.out[field] = v;
  }

  /**
   * A date frame (pretix's `DateFrameField`: a relative frame such as `week_this` or `days_last7`, or
   * `YYYY-MM-DD/YYYY-MM-DD`), `"/"` when empty unless the default is null. When the frame is absent, pretix's
   * older `<name>_from`/`<name>_to` dates (for `*_range` fields) make it up.
   */
  dateFrame(field: string, fallback: string | null): void {
    this.fields.push({ name: field, required: false });
    let v = this.input[field] === undefined ? this.legacyFrame(field) : this.input[field];
    if (v === undefined) v = fallback;
    if (v === null || v === '') {
      this.out[field] = fallback === null ? null : '/';
      return;
    }
    if (typeof v !== 'string' || !resolveDateFrame(v, 'UTC')) this.fail(field, 'Invalid date frame');
    else this.out[field] = v;
  }

  /** `date_from`/`date_to` for `date_range` as pretix still reads them; undefined when neither is sent. */
  private legacyFrame(field: string): string | undefined {
    if (!field.endsWith('_range')) return undefined;
    const base = field.slice(0, -'_range'.length);
    const sides = [`${base}_from`, `${base}_to`];
    if (sides.every((k) => this.input[k] === undefined)) return undefined;
    const parts = sides.map((k) => {
      this.consumed.add(k);
      const d = this.input[k];
      if (d === undefined || d === null || d === '') return '';
      if (typeof d !== 'string' || !ISO_DATE.test(d) || !DateTime.fromISO(d).isValid) {
        this.fail(k, 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
        return '';
      }
      return d;
    });
    return parts.join('/');
  }

  /** A list of positive ids (default `[]`), de-duplicated and sorted. */
  ids(field: string): void {
    this.fields.push({ name: field, required: false });
    const v = this.input[field] ?? [];
    if (!Array.isArray(v) || !v.every((x) => Number.isInteger(x) && (x as number) > 0))
      this.fail(field, 'Expected a list of ids.');
    else this.out[field] = [...new Set(v as number[])].sort((a, b) => a - b);
  }

  /** A required positive id. */
  requiredId(field: string): void {
    this.fields.push({ name: field, required: true });
    const v = this.input[field];
    if (v === undefined || v === null) this.fail(field, 'This field is required.');
    else if (!Number.isInteger(v) || (v as number) <= 0) this.fail(field, 'A valid integer is required.');
    else this.out[field] = v;
  }

  /** A list of event slugs (default `[]`), de-duplicated and sorted. */
  slugs(field: string): void {
    this.fields.push({ name: field, required: false });
    const v = this.input[field] ?? [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== ''))
      this.fail(field, 'Expected a list of event slugs.');
    else this.out[field] = [...new Set(v as string[])].sort();
  }

  /**
   * In `run` mode, refuses input keys that are no field (pretix: `{"fields": ["Additional fields not allowed:
   * ['foobar']."]}`); call after every field was checked.
   */
  finish(): void {
    if (this.mode !== 'run') return;
    const known = new Set([...this.fields.map((f) => f.name), ...this.consumed]);
    const extra = Object.keys(this.input)
      .filter((k) => !known.has(k))
      .sort();
    if (extra.length > 0)
      this.fail('fields', `Additional fields not allowed: [${extra.map((k) => `'${k}'`).join(', ')}].`);
  }
}
