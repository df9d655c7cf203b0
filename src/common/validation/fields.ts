import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, ValidateBy, ValidateIf, ValidationArguments, ValidationOptions } from 'class-validator';
import { LIMITS, tooManyMessage } from '../../config/limits';
import {
  ApiDate,
  ApiDateTime,
  ApiEnum,
  ApiEnumList,
  ApiI18n,
  ApiInt,
  ApiIntList,
  ApiMaxItems,
  ApiMoney,
  ApiTime,
  decimalInputPattern,
} from '../http/api-schemas';
import { isIsoDateTime } from '../values/datetime';

/**
 * Field decorators for request DTOs with the messages of pretix/DRF (compat §1.5). Presence is declared
 * separately from type: `@Required()`, `@Optional()` (may be absent, never null) or `@Nullable()` (may be absent
 * or null). Type checks pass on undefined/null so that the presence message wins.
 *
 * PATCH DTOs are `PartialType(CreateDto, { skipNullProperties: false })`: absent fields are skipped, a null on a
 * non-nullable field still answers "This field may not be null.".
 *
 * Each decorator also documents what it accepts in the OpenAPI document (type, format, enum, presence,
 * nullability; `common/http/api-schemas.ts`), so the validators are the one source of the request schemas.
 */

type Check = (value: unknown, object: object) => string | null;

/** Builds a decorator from a function returning the error message, or null when the value is fine. */
export function rule(name: string, check: Check, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => check(value, args?.object ?? {}) === null,
        defaultMessage: (args?: ValidationArguments) =>
          check(args?.value, args?.object ?? {}) ?? 'Invalid value.',
      },
    },
    options,
  );
}

const absent = (v: unknown): boolean => v === undefined || v === null;

/** Must be present and non-null. */
export function Required(): PropertyDecorator {
  return applyDecorators(
    rule('required', (v) =>
      v === undefined ? 'This field is required.' : v === null ? 'This field may not be null.' : null,
    ),
    ApiProperty({ required: true }),
  );
}

/** May be omitted; when sent, must not be null. */
export function Optional(): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_o, v) => v !== undefined)(target, key);
    rule('notNull', (v) => (v === null ? 'This field may not be null.' : null))(target, key);
    ApiProperty({ required: false })(target, key);
  };
}

/** May be omitted or null. */
export function Nullable(): PropertyDecorator {
  return applyDecorators(IsOptional(), ApiProperty({ required: false, nullable: true }));
}

export interface StrOptions {
  max?: number;
  min?: number;
  /** Whether "" is accepted (DRF `allow_blank`); default true. */
  blank?: boolean;
  pattern?: RegExp;
  patternMessage?: string;
}

export function checkStr(v: unknown, o: StrOptions = {}): string | null {
  if (absent(v)) return null;
  if (typeof v !== 'string') return 'Not a valid string.';
  if (o.blank === false && v.trim() === '') return 'This field may not be blank.';
  if (o.max !== undefined && v.length > o.max)
    return `Ensure this field has no more than ${o.max} characters.`;
  if (o.min !== undefined && v.length < o.min) return `Ensure this field has at least ${o.min} characters.`;
  if (o.pattern && v !== '' && !o.pattern.test(v)) return o.patternMessage ?? 'Enter a valid value.';
  return null;
}

export function IsStr(options: StrOptions = {}): PropertyDecorator {
  return applyDecorators(
    rule('isStr', (v) => checkStr(v, options)),
    ApiProperty({
      type: 'string',
      ...(options.max !== undefined ? { maxLength: options.max } : {}),
      ...(options.min !== undefined ? { minLength: options.min } : {}),
      ...(options.pattern ? { pattern: options.pattern.source } : {}),
    }),
  );
}

export function IsBool(): PropertyDecorator {
  return applyDecorators(
    rule('isBool', (v) => (absent(v) || typeof v === 'boolean' ? null : 'Must be a valid boolean.')),
    ApiProperty({ type: 'boolean' }),
  );
}

export interface IntOptions {
  min?: number;
  max?: number;
}

const INT_MAX = 2147483647;

export function checkInt(v: unknown, o: IntOptions = {}): string | null {
  if (absent(v)) return null;
  if (typeof v !== 'number' || !Number.isInteger(v)) return 'A valid integer is required.';
  const min = o.min ?? -INT_MAX - 1;
  const max = o.max ?? INT_MAX;
  if (v < min) return `Ensure this value is greater than or equal to ${min}.`;
  if (v > max) return `Ensure this value is less than or equal to ${max}.`;
  return null;
}

export function IsInteger(options: IntOptions = {}): PropertyDecorator {
  return applyDecorators(
    rule('isInteger', (v) => checkInt(v, options)),
    ApiInt({ minimum: options.min, maximum: options.max }),
  );
}

/** A number, or a string holding one (read as the number). */
export function IsFloatNumber(options: { min?: number; max?: number } = {}): PropertyDecorator {
  const bounds = {
    ...(options.min !== undefined ? { minimum: options.min } : {}),
    ...(options.max !== undefined ? { maximum: options.max } : {}),
  };
  const check = rule('isFloat', (v) => {
    if (absent(v)) return null;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) return 'A valid number is required.';
    if (options.min !== undefined && n < options.min)
      return `Ensure this value is greater than or equal to ${options.min}.`;
    if (options.max !== undefined && n > options.max)
      return `Ensure this value is less than or equal to ${options.max}.`;
    return null;
  });
  return applyDecorators(
    check,
    ApiProperty({
      oneOf: [
        { type: 'number', format: 'double', ...bounds },
        { type: 'string', format: 'double' },
      ],
    }),
  );
}

/** A decimal as number or string with at most `digits` digits, `places` of them after the point. */
export function checkDecimal(v: unknown, digits = 13, places = 2, min?: number): string | null {
  if (absent(v)) return null;
  const s =
    typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  const m = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '') || /e/i.test(s)) return 'A valid number is required.';
  const whole = m[2].replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > places) return `Ensure that there are no more than ${places} decimal places.`;
  if (whole.length + frac.length > digits)
    return `Ensure that there are no more than ${digits} digits in total.`;
  if (whole.length > digits - places)
    return `Ensure that there are no more than ${digits - places} digits before the decimal point.`;
  if (min !== undefined && Number(s) < min) return `Ensure this value is greater than or equal to ${min}.`;
  return null;
}

/** Money: number or string, 13 digits, 2 decimals (compat §1.10). */
export function IsMoney(options: { min?: number } = {}): PropertyDecorator {
  return applyDecorators(
    rule('isMoney', (v) => checkDecimal(v, 13, 2, options.min)),
    ApiMoney({ input: true }),
  );
}

/** A decimal as number or string with at most `digits` digits, `places` of them after the point. */
export function IsDecimalString(
  digits: number,
  places: number,
  options: { min?: number } = {},
): PropertyDecorator {
  const whole = digits - places;
  return applyDecorators(
    rule('isDecimal', (v) => checkDecimal(v, digits, places, options.min)),
    ApiProperty({
      oneOf: [
        {
          type: 'string',
          format: 'decimal',
          description: `A decimal string with at most ${places} decimals and ${whole} digits before the point.`,
          pattern: decimalInputPattern(whole, places),
        },
        { type: 'number' },
      ],
    }),
  );
}

/** A multi-lingual string: an object of language code to text, or a plain string (compat §1.10). */
export function checkI18n(v: unknown): string | null {
  if (absent(v) || typeof v === 'string') return null;
  if (typeof v !== 'object' || Array.isArray(v))
    return 'Invalid i18n string: expected an object or a string.';
  for (const [lang, text] of Object.entries(v as Record<string, unknown>)) {
    if (!/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]+)*$/.test(lang)) return `Invalid language code "${lang}".`;
    if (typeof text !== 'string') return 'Invalid i18n string: every value must be a string.';
  }
  return null;
}

export function IsI18nString(): PropertyDecorator {
  return applyDecorators(rule('isI18n', checkI18n), ApiI18n({ input: true }));
}

const DATETIME_MESSAGE =
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';

export function IsDateTimeString(): PropertyDecorator {
  return applyDecorators(
    rule('isDateTime', (v) => (absent(v) || isIsoDateTime(v) ? null : DATETIME_MESSAGE)),
    ApiDateTime(),
  );
}

export function checkDate(v: unknown): string | null {
  if (absent(v)) return null;
  const msg = 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return msg;
  const d = new Date(`${v}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v ? msg : null;
}

export function IsDateString(): PropertyDecorator {
  return applyDecorators(rule('isDate', checkDate), ApiDate());
}

export function checkTime(v: unknown): string | null {
  if (absent(v)) return null;
  const m = typeof v === 'string' ? /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/.exec(v) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59)
    return 'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].';
  return null;
}

export function IsTimeString(): PropertyDecorator {
  return applyDecorators(rule('isTime', checkTime), ApiTime());
}

export function IsChoice(choices: readonly string[]): PropertyDecorator {
  return applyDecorators(
    rule('isChoice', (v) =>
      absent(v) || (typeof v === 'string' && choices.includes(v))
        ? null
        : `"${String(v)}" is not a valid choice.`,
    ),
    ApiEnum(choices),
  );
}

function listTypeError(v: unknown): string | null {
  if (Array.isArray(v)) return null;
  return `Expected a list of items but got type "${typeof v === 'string' ? 'str' : typeof v === 'object' ? 'dict' : typeof v}".`;
}

/**
 * A list of at most `max` entries (README "Limits", `LIMITS` in `config/limits.ts`): a longer one answers
 * `["Ensure this field has no more than <max> elements."]` on its field. Other values pass (the type rules
 * answer them).
 */
export function MaxItems(max: number): PropertyDecorator {
  return applyDecorators(
    rule('maxItems', (v) => (Array.isArray(v) && v.length > max ? tooManyMessage(max) : null)),
    ApiMaxItems(max),
  );
}

/** A list of at most `LIMITS.listEntries` integer ids (existence is checked by the service). */
/** Length bound of a list field: at most `max` entries (default `LIMITS.listEntries`), else `tooMany`. */
export interface ListOptions {
  max?: number;
  /** Message above `max` (default DRF's `Ensure this field has no more than N elements.`). */
  tooMany?: string;
}

function listTooLong(v: unknown[], list: ListOptions): string | null {
  const max = list.max ?? LIMITS.listEntries;
  return v.length > max ? (list.tooMany ?? tooManyMessage(max)) : null;
}

export function IsIntList(list: ListOptions = {}): PropertyDecorator {
  const check = rule('isIntList', (v) => {
    if (absent(v)) return null;
    const err = listTypeError(v) ?? listTooLong(v as unknown[], list);
    if (err) return err;
    for (const x of v as unknown[]) {
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > INT_MAX)
        return `Incorrect type. Expected pk value, received ${typeof x === 'string' ? 'str' : typeof x}.`;
    }
    return null;
  });
  return applyDecorators(check, ApiIntList({ minimum: 1 }), ApiMaxItems(list.max ?? LIMITS.listEntries));
}

/** A list of at most `LIMITS.listEntries` strings, optionally restricted to choices. */
export function IsStrList(
  choices?: readonly string[],
  options: StrOptions = {},
  list: ListOptions = {},
): PropertyDecorator {
  const check = rule('isStrList', (v) => {
    if (absent(v)) return null;
    const err = listTypeError(v) ?? listTooLong(v as unknown[], list);
    if (err) return err;
    for (const x of v as unknown[]) {
      if (typeof x !== 'string') return 'Not a valid string.';
      if (choices && !choices.includes(x)) return `"${x}" is not a valid choice.`;
      const e = checkStr(x, options);
      if (e) return e;
    }
    return null;
  });
  const maxItems = list.max ?? LIMITS.listEntries;
  return applyDecorators(
    check,
    choices
      ? ApiEnumList(choices)
      : ApiProperty({
          type: 'array',
          items: { type: 'string', ...(options.max ? { maxLength: options.max } : {}) },
        }),
    ApiMaxItems(maxItems),
  );
}

/** A JSON object (not a list or scalar). */
export function IsJsonObject(): PropertyDecorator {
  return rule('isJsonObject', (v) =>
    absent(v) || (typeof v === 'object' && !Array.isArray(v))
      ? null
      : `Expected a dictionary of items but got type "${Array.isArray(v) ? 'list' : typeof v === 'string' ? 'str' : typeof v}".`,
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function IsEmailAddress(options: { max?: number } = {}): PropertyDecorator {
  const check = rule('isEmail', (v) => {
    if (absent(v)) return null;
    if (typeof v !== 'string' || !EMAIL.test(v)) return 'Enter a valid email address.';
    if (v.length > (options.max ?? 254))
      return `Ensure this field has no more than ${options.max ?? 254} characters.`;
    return null;
  });
  return applyDecorators(
    check,
    ApiProperty({ type: 'string', format: 'email', maxLength: options.max ?? 254 }),
  );
}

/** Organizer/event slugs: letters, digits, dots and dashes (compat §4.2). */
export function IsSlug(max = 50): PropertyDecorator {
  return IsStr({
    blank: false,
    max,
    min: 1,
    pattern: /^[a-zA-Z0-9][a-zA-Z0-9.-]*$/,
    patternMessage: 'The slug may only contain letters, numbers, dots and dashes.',
  });
}
