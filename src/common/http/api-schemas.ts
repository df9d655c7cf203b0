import { ApiProperty, DECORATORS, OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * Shared OpenAPI types of the wire format (README "API conventions": a document good enough for generated SDKs).
 * The component schemas below are added to the document by {@link withSharedSchemas}; the decorators put them, and
 * the precise scalar types (integers, date-times, enums, nullability), on the properties of the DTO (`*Dto`) and
 * response (`*Json`) classes, so the document is generated from the classes alone. The field validators of
 * `common/validation/fields.ts` apply the input variants themselves (`@IsMoney()` documents `MoneyInput`, …).
 */

/** Names of the shared component schemas. */
export const SCHEMA = {
  i18n: 'I18nString',
  i18nInput: 'I18nStringInput',
  money: 'Money',
  moneyInput: 'MoneyInput',
  percent: 'Percentage',
  percentInput: 'PercentageInput',
} as const;

/** `#/components/schemas/<name>`. */
export function schemaRef(name: string): string {
  return `#/components/schemas/${name}`;
}

/** A decimal string as read: optional sign, digits, at most `places` after the point (leading zeros allowed). */
export function decimalInputPattern(whole: number, places: number): string {
  return `^\\s*[+-]?(?=\\.?\\d)0*\\d{0,${whole}}(\\.\\d{0,${places}}0*)?\\s*$`;
}

/** The component schemas referenced by the decorators of this file. */
export const SHARED_SCHEMAS: Record<string, SchemaObject> = {
  [SCHEMA.i18n]: {
    type: 'object',
    description:
      'Multi-lingual string: an object mapping a language code (`en`, `de`, `de-informal`, `pt_BR`, …) to the ' +
      'text in that language.',
    additionalProperties: { type: 'string' },
    example: { en: 'Ticket', de: 'Eintrittskarte' },
  },
  [SCHEMA.i18nInput]: {
    description:
      'Multi-lingual string as accepted on input: an object mapping language codes (2 or 3 letters, optionally ' +
      'followed by `-`/`_` and letters or digits) to strings, or a plain string, stored under the default ' +
      'language `en`. Answered as an `I18nString` object.',
    oneOf: [{ $ref: schemaRef(SCHEMA.i18n) }, { type: 'string' }],
  },
  [SCHEMA.money]: {
    type: 'string',
    format: 'decimal',
    description: 'Amount of money as a decimal string with exactly two decimals (at most 13 digits).',
    pattern: '^-?\\d{1,11}\\.\\d{2}$',
    example: '23.00',
  },
  [SCHEMA.moneyInput]: {
    description:
      'Amount of money as accepted on input: a JSON number or a decimal string with at most two decimals and at ' +
      'most 11 digits before the point (13 in total); no exponent. Answered as a `Money` string (`"23.00"`).',
    oneOf: [
      { type: 'string', format: 'decimal', pattern: decimalInputPattern(11, 2), example: '23.00' },
      { type: 'number', example: 23 },
    ],
  },
  [SCHEMA.percent]: {
    type: 'string',
    format: 'decimal',
    description: 'A percentage as a non-negative decimal string with two decimals, e.g. `"19.00"`.',
    pattern: '^\\d{1,8}\\.\\d{2}$',
    example: '19.00',
  },
  [SCHEMA.percentInput]: {
    description:
      'A percentage from 0 to 100 as accepted on input: a JSON number or a decimal string with at most two ' +
      'decimals; no exponent. Answered as a `Percentage` string.',
    oneOf: [
      { type: 'string', format: 'decimal', pattern: decimalInputPattern(3, 2), example: '19.00' },
      { type: 'number', minimum: 0, maximum: 100, example: 19 },
    ],
  },
};

/**
 * Adds {@link SHARED_SCHEMAS} to a generated document's `components.schemas` (the decorators of this file
 * reference them). Called once where the document is built.
 */
export function withSharedSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = { ...(document.components?.schemas ?? {}), ...SHARED_SCHEMAS };
  return { ...document, components: { ...document.components, schemas } };
}

/** Options shared by the type decorators. */
export interface ApiTypeOptions {
  /** Null is accepted (input) or may be answered (output). */
  nullable?: boolean;
  /** Answered only: ignored when sent. */
  readOnly?: boolean;
  description?: string;
}

/** Only the options that are set, so that the plugin's metadata (description, required) survives. */
function common(o: ApiTypeOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.nullable) out.nullable = true;
  if (o.readOnly) out.readOnly = true;
  if (o.description !== undefined) out.description = o.description;
  return out;
}

/** A property typed as a reference to a shared component (as `allOf`, which allows `nullable` beside it). */
function ApiRef(name: string, o: ApiTypeOptions): PropertyDecorator {
  return ApiProperty({ allOf: [{ $ref: schemaRef(name) }], ...common(o) });
}

/** A multi-lingual string: `I18nString` as answered, `I18nStringInput` (object or plain string) with `input`. */
export function ApiI18n(o: ApiTypeOptions & { input?: boolean } = {}): PropertyDecorator {
  return ApiRef(o.input ? SCHEMA.i18nInput : SCHEMA.i18n, o);
}

/** Money: `Money` (`"23.00"`) as answered, `MoneyInput` (number or decimal string) with `input`. */
export function ApiMoney(o: ApiTypeOptions & { input?: boolean } = {}): PropertyDecorator {
  return ApiRef(o.input ? SCHEMA.moneyInput : SCHEMA.money, o);
}

/** A percentage: `Percentage` (`"19.00"`) as answered, `PercentageInput` with `input`. */
export function ApiPercent(o: ApiTypeOptions & { input?: boolean } = {}): PropertyDecorator {
  return ApiRef(o.input ? SCHEMA.percentInput : SCHEMA.percent, o);
}

/** An ISO 8601 datetime string (`format: date-time`). */
export function ApiDateTime(o: ApiTypeOptions = {}): PropertyDecorator {
  return ApiProperty({ type: 'string', format: 'date-time', ...common(o) });
}

/** An ISO 8601 date string `YYYY-MM-DD` (`format: date`). */
export function ApiDate(o: ApiTypeOptions = {}): PropertyDecorator {
  return ApiProperty({ type: 'string', format: 'date', ...common(o) });
}

/** A time of day `hh:mm[:ss[.uuuuuu]]` (`format: time`). */
export function ApiTime(o: ApiTypeOptions = {}): PropertyDecorator {
  return ApiProperty({ type: 'string', format: 'time', ...common(o) });
}

/** Bounds of an integer. */
export interface ApiIntOptions extends ApiTypeOptions {
  minimum?: number;
  maximum?: number;
  /** 64-bit (`format: int64`) instead of 32-bit. */
  int64?: boolean;
}

function intSchema(o: ApiIntOptions): Record<string, unknown> {
  return {
    type: 'integer',
    format: o.int64 ? 'int64' : 'int32',
    ...(o.minimum !== undefined ? { minimum: o.minimum } : {}),
    ...(o.maximum !== undefined ? { maximum: o.maximum } : {}),
  };
}

/** An integer (an id, a count, a position): `type: integer`, `format: int32` unless `int64`. */
export function ApiInt(o: ApiIntOptions = {}): PropertyDecorator {
  return ApiProperty({ ...intSchema(o), ...common(o) });
}

/** A list of integers (ids). */
export function ApiIntList(o: ApiIntOptions & { maxItems?: number } = {}): PropertyDecorator {
  return ApiProperty({
    type: 'array',
    items: intSchema(o),
    ...(o.maxItems !== undefined ? { maxItems: o.maxItems } : {}),
    ...common(o),
  });
}

/** A string of a fixed set of values (`enum`); `nullable` adds null. */
export function ApiEnum(values: readonly string[], o: ApiTypeOptions = {}): PropertyDecorator {
  return ApiProperty({ type: 'string', enum: [...values], ...common(o) });
}

/** A list of strings of a fixed set of values. */
export function ApiEnumList(values: readonly string[], o: ApiTypeOptions = {}): PropertyDecorator {
  return ApiProperty({ type: 'array', items: { type: 'string', enum: [...values] }, ...common(o) });
}

/** `maxItems` of a list; where several bounds apply (a default and a field's own), the smallest one. */
export function ApiMaxItems(max: number): PropertyDecorator {
  return (target, key) => {
    const existing = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, target, key) as
      { maxItems?: number } | undefined;
    const current = existing?.maxItems;
    ApiProperty({ maxItems: current === undefined ? max : Math.min(current, max) })(target, key);
  };
}

/** A decimal string answered with exactly `places` decimals (e.g. a question's `valid_number_min`). */
export function ApiDecimalString(places: number, o: ApiTypeOptions = {}): PropertyDecorator {
  return ApiProperty({
    type: 'string',
    format: 'decimal',
    pattern: `^-?\\d+\\.\\d{${places}}$`,
    ...common(o),
  });
}
