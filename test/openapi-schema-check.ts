/**
 * A small validator of JSON values against the OpenAPI 3.0 schemas of the served document (the subset the
 * document uses: `$ref`, `allOf`, `oneOf`, `nullable`, `type`, `format`, `enum`, `pattern`, bounds, `items`,
 * `properties`, `required`, `additionalProperties`). Objects with `properties` are strict: a key the schema does
 * not document is an error, so a response cannot carry undocumented fields.
 */

/** An OpenAPI 3.0 schema object, as far as the checks need it. */
export interface OpenApiSchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  nullable?: boolean;
  readOnly?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  allOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  additionalProperties?: boolean | OpenApiSchema;
  description?: string;
}

export type Schemas = Record<string, OpenApiSchema>;

const PREFIX = '#/components/schemas/';

/** The component a `$ref` names (throws on a dangling reference). */
export function resolveRef(schemas: Schemas, ref: string): OpenApiSchema {
  const schema = schemas[ref.replace(PREFIX, '')];
  if (!ref.startsWith(PREFIX) || !schema) throw new Error(`dangling $ref ${ref}`);
  return schema;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function formatError(format: string | undefined, v: string): string | null {
  if (format === 'date-time' && (!DATE_TIME.test(v) || Number.isNaN(Date.parse(v)))) return 'not a date-time';
  if (format === 'date' && !DATE.test(v)) return 'not a date';
  if (format === 'time' && !TIME.test(v)) return 'not a time';
  if (format === 'email' && !EMAIL.test(v)) return 'not an email address';
  return null;
}

function typeErrors(s: OpenApiSchema, v: unknown, at: string, schemas: Schemas): string[] {
  switch (s.type) {
    case undefined:
      return [];
    case 'string': {
      if (typeof v !== 'string') return [`${at}: expected a string, got ${JSON.stringify(v)}`];
      const format = formatError(s.format, v);
      if (format) return [`${at}: ${format}: ${JSON.stringify(v)}`];
      if (s.pattern && !new RegExp(s.pattern).test(v))
        return [`${at}: ${JSON.stringify(v)} !~ /${s.pattern}/`];
      if (s.maxLength !== undefined && v.length > s.maxLength) return [`${at}: longer than ${s.maxLength}`];
      if (s.minLength !== undefined && v.length < s.minLength) return [`${at}: shorter than ${s.minLength}`];
      return [];
    }
    case 'integer':
    case 'number': {
      if (typeof v !== 'number' || (s.type === 'integer' && !Number.isInteger(v)))
        return [
          `${at}: expected ${s.type === 'integer' ? 'an integer' : 'a number'}, got ${JSON.stringify(v)}`,
        ];
      if (s.format === 'int32' && (v < -(2 ** 31) || v >= 2 ** 31)) return [`${at}: out of int32 range`];
      if (s.minimum !== undefined && v < s.minimum) return [`${at}: below ${s.minimum}`];
      if (s.maximum !== undefined && v > s.maximum) return [`${at}: above ${s.maximum}`];
      return [];
    }
    case 'boolean':
      return typeof v === 'boolean' ? [] : [`${at}: expected a boolean, got ${JSON.stringify(v)}`];
    case 'array': {
      if (!Array.isArray(v)) return [`${at}: expected an array, got ${JSON.stringify(v)}`];
      if (s.maxItems !== undefined && v.length > s.maxItems) return [`${at}: more than ${s.maxItems} items`];
      return v.flatMap((x, i) => (s.items ? validate(schemas, s.items, x, `${at}[${i}]`) : []));
    }
    case 'object':
      return objectErrors(s, v, at, schemas);
    default:
      return [`${at}: unknown type ${s.type}`];
  }
}

function objectErrors(s: OpenApiSchema, v: unknown, at: string, schemas: Schemas): string[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return [`${at}: expected an object, got ${JSON.stringify(v)}`];
  const obj = v as Record<string, unknown>;
  const errors = (s.required ?? []).filter((k) => !(k in obj)).map((k) => `${at}.${k}: missing`);
  for (const [k, x] of Object.entries(obj)) {
    const prop = s.properties?.[k];
    if (prop) errors.push(...validate(schemas, prop, x, `${at}.${k}`));
    else if (typeof s.additionalProperties === 'object')
      errors.push(...validate(schemas, s.additionalProperties, x, `${at}.${k}`));
    else if (s.properties && s.additionalProperties !== true) errors.push(`${at}.${k}: not documented`);
  }
  return errors;
}

/** The errors of `value` against `schema` (empty when it conforms), each prefixed with its JSON path. */
export function validate(schemas: Schemas, schema: OpenApiSchema, value: unknown, at = '$'): string[] {
  if (schema.$ref) return validate(schemas, resolveRef(schemas, schema.$ref), value, at);
  if (value === null) {
    if (schema.nullable) return [];
    const inner = [...(schema.allOf ?? []), ...(schema.oneOf ?? [])];
    // A bare wrapper ({allOf: [$ref]}) is as nullable as what it wraps.
    if (inner.length > 0 && schema.type === undefined && schema.allOf?.length === 1)
      return validate(schemas, schema.allOf[0], value, at);
    // Alternatives of which one is nullable ({oneOf: [{type: string, nullable: true}, {type: number}]}).
    if (!(schema.type === undefined && (schema.oneOf || schema.anyOf))) return [`${at}: null is not allowed`];
  }
  const errors: string[] = [];
  for (const part of schema.allOf ?? []) errors.push(...validate(schemas, part, value, at));
  if (schema.oneOf) {
    const matches = schema.oneOf.filter((part) => validate(schemas, part, value, at).length === 0).length;
    if (matches !== 1)
      errors.push(`${at}: matches ${matches} of the oneOf alternatives: ${JSON.stringify(value)}`);
  }
  if (schema.anyOf && !schema.anyOf.some((part) => validate(schemas, part, value, at).length === 0))
    errors.push(`${at}: matches none of the anyOf alternatives: ${JSON.stringify(value)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} not in enum`);
  errors.push(...typeErrors(schema, value, at, schemas));
  return errors;
}

/** Whether a property schema says nothing about its values: `{}` or an object without any shape. */
export function isUntyped(s: OpenApiSchema): boolean {
  const shaped = s.$ref || s.allOf || s.oneOf || s.anyOf || s.enum;
  if (shaped) return false;
  if (s.type === undefined) return true;
  if (s.type === 'object') return !s.properties && s.additionalProperties === undefined;
  if (s.type === 'array') return !s.items || isUntyped(s.items);
  return false;
}
