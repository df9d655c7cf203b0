import type { FieldErrors } from '../common/errors';

/** Where an exporter runs: an event (`E/...`) or an organizer (`O/...`, several events). */
export type ExportLevel = 'event' | 'organizer';

/** File formats of the exporters (`_format`). */
export const EXPORT_FORMATS = ['xlsx', 'csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An exporter's identity and where it is offered. */
export interface ExporterInfo {
  identifier: string;
  verboseName: string;
  levels: readonly ExportLevel[];
}

/** The exporters of this service (issue 13), by identifier. */
export const EXPORTERS: readonly ExporterInfo[] = [
  { identifier: 'orderlist', verboseName: 'Order data', levels: ['event', 'organizer'] },
  { identifier: 'checkinlist', verboseName: 'Check-in list', levels: ['event'] },
  { identifier: 'giftcardlist', verboseName: 'Gift cards', levels: ['organizer'] },
  { identifier: 'voucherlist', verboseName: 'Vouchers', levels: ['event'] },
  { identifier: 'quotas', verboseName: 'Quota availabilities', levels: ['event'] },
];

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

type Form = Record<string, unknown>;

/** Collects field errors; `done()` gives the cleaned form or throws nothing (the caller decides). */
class Checker {
  readonly errors: Record<string, string[]> = {};
  readonly out: Form = {};
  constructor(private readonly input: Form) {}

  private fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  choice(field: string, choices: readonly string[], fallback: string): void {
    const v = this.input[field] ?? fallback;
    if (typeof v !== 'string' || !choices.includes(v))
      this.fail(field, `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`);
    else this.out[field] = v;
  }

  bool(field: string, fallback: boolean): void {
    const v = this.input[field] ?? fallback;
    if (typeof v !== 'boolean') this.fail(field, 'Must be a valid boolean.');
    else this.out[field] = v;
  }

  dateFrame(field: string, fallback: string | null): void {
    const v = this.input[field] === undefined ? fallback : this.input[field];
    if (v === null || v === '') {
      this.out[field] = fallback === null ? null : '/';
      return;
    }
    if (typeof v !== 'string' || !parseDateFrame(v)) this.fail(field, 'Invalid date frame');
    else this.out[field] = v;
  }

  ids(field: string): void {
    const v = this.input[field] ?? [];
    if (!Array.isArray(v) || !v.every((x) => Number.isInteger(x) && (x as number) > 0))
      this.fail(field, 'Expected a list of ids.');
    else this.out[field] = [...new Set(v as number[])].sort((a, b) => a - b);
  }

  requiredId(field: string): void {
    const v = this.input[field];
    if (v === undefined || v === null) this.fail(field, 'This field is required.');
    else if (!Number.isInteger(v) || (v as number) <= 0) this.fail(field, 'A valid integer is required.');
    else this.out[field] = v;
  }

  slugs(field: string): void {
    const v = this.input[field] ?? [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== ''))
      this.fail(field, 'Expected a list of event slugs.');
    else this.out[field] = [...new Set(v as string[])].sort();
  }
}

/**
 * Validates an exporter's form data and fills in its defaults, which are stored with a scheduled export
 * (compat §3.7: missing `items` -> `[]`, organizer `orderlist` adds `event_date_range: "/"`).
 * Fields per exporter: all `_format` (`xlsx` default, `csv`, `json`); `orderlist`: `paid_only`,
 * `include_payment_amounts` (booleans, default false), `date_range` (order date frame, default `"/"`), `items`
 * (product ids, default `[]` = all), organizer level `events` (event slugs, default `[]` = all the events) and
 * `event_date_range`; `checkinlist`: `list` (required id of a check-in list), `paid_only` (default true);
 * `giftcardlist`: `testmode` (default false); `voucherlist`, `quotas`: `_format` only. Unknown keys are dropped.
 * @returns the cleaned form, or field errors (`{"field": ["message"]}`) for the `export_form_data` field
 */
export function cleanExportForm(
  identifier: string,
  level: ExportLevel,
  input: Form,
): { form: Form } | { errors: FieldErrors } {
  const c = new Checker(input);
  c.choice('_format', EXPORT_FORMATS, 'xlsx');
  switch (identifier) {
    case 'orderlist':
      c.bool('paid_only', false);
      c.bool('include_payment_amounts', false);
      c.dateFrame('date_range', '/');
      c.ids('items');
      if (level === 'organizer') {
        c.slugs('events');
        c.dateFrame('event_date_range', '/');
      }
      break;
    case 'checkinlist':
      c.requiredId('list');
      c.bool('paid_only', true);
      break;
    case 'giftcardlist':
      c.bool('testmode', false);
      break;
    default:
      break;
  }
  return Object.keys(c.errors).length > 0 ? { errors: c.errors } : { form: c.out };
}

/** The exporter with this identifier offered at this level, or null (`"x" is not a valid choice.`). */
export function exporterAt(identifier: unknown, level: ExportLevel): ExporterInfo | null {
  return EXPORTERS.find((e) => e.identifier === identifier && e.levels.includes(level)) ?? null;
}
