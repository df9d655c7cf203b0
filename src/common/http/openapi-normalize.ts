import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The last pass over the served OpenAPI document (README "API conventions"): rewrites the schema shapes the
 * decorators and the swagger plugin produce into the plain OpenAPI 3.0 forms linters (`npm run openapi:lint`) and
 * SDK generators read as meant, without changing what any schema accepts:
 * - a lone wrapper `{allOf: [X]}` (no siblings) becomes `X`;
 * - `nullable` needs a `type` beside it (OpenAPI 3.0: `nullable` only extends an explicit type): a nullable
 *   reference to a typed component (`{allOf: [{$ref: Money}], nullable: true}`) gets the component's `type`; a
 *   nullable schema of alternatives of different types (`oneOf: [number, string]`, a reference to `MoneyInput`)
 *   lists the alternatives itself and makes the first inline typed one nullable (exactly one, so that `null`
 *   still matches exactly one alternative of a `oneOf`); without such an alternative, `null` becomes an
 *   alternative of its own, {@link NULL_SCHEMA}.
 */

type Schema = Record<string, unknown>;

/** Name of the component that accepts only `null`. */
export const NULL_SCHEMA_NAME = 'Null';

/** `null` and nothing else (OpenAPI 3.0 has no `type: null`: a nullable type whose only value is null). */
export const NULL_SCHEMA: Schema = {
  type: 'string',
  nullable: true,
  enum: [null],
  description: 'JSON `null`, as an alternative of a nullable value of several types.',
};

const NULL_REF = { $ref: `#/components/schemas/${NULL_SCHEMA_NAME}` };
const COMPOSITIONS = ['allOf', 'oneOf', 'anyOf'] as const;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local `$ref`s of `#/components/schemas/` to the schema they name. */
function resolve(schemas: Record<string, Schema>, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; hops < 10 && typeof current.$ref === 'string'; hops++) {
    const next = schemas[current.$ref.replace('#/components/schemas/', '')];
    if (!next) break;
    current = next;
  }
  return current;
}

/** The one `type` a schema's values have, looking through references and `allOf`; undefined when several. */
function typeOf(schemas: Record<string, Schema>, schema: Schema): string | undefined {
  const s = resolve(schemas, schema);
  if (typeof s.type === 'string') return s.type;
  const parts = Array.isArray(s.allOf) ? s.allOf.filter(isObject) : [];
  for (const part of parts) {
    const type = typeOf(schemas, part);
    if (type) return type;
  }
  return undefined;
}

/** One schema rewritten (see the file comment); its subschemas are rewritten by the caller's walk. */
function normalizeSchema(schemas: Record<string, Schema>, schema: Schema): Schema {
  const keys = Object.keys(schema);
  if (
    keys.length === 1 &&
    Array.isArray(schema.allOf) &&
    schema.allOf.length === 1 &&
    isObject(schema.allOf[0])
  )
    return schema.allOf[0];
  if (schema.nullable !== true || schema.type !== undefined) return schema;
  const type = typeOf(schemas, schema);
  if (type) return { type, ...schema };
  const { nullable: _nullable, allOf, ...rest } = schema;
  // A nullable reference to a component of alternatives (`MoneyInput`): its alternatives, listed here.
  const wrapped = Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) ? allOf[0] : undefined;
  const own = wrapped ? resolve(schemas, wrapped) : schema;
  const key = Array.isArray(own.oneOf) ? 'oneOf' : Array.isArray(own.anyOf) ? 'anyOf' : undefined;
  const base = wrapped ? rest : { ...rest, ...(allOf ? { allOf } : {}) };
  if (!key) return wrapped ? { ...rest, oneOf: [wrapped, NULL_REF] } : { ...base, nullable: true };
  const alternatives = (own[key] as unknown[]).filter(isObject);
  const at = alternatives.findIndex((a) => typeof a.type === 'string' && a.$ref === undefined);
  const listed =
    at < 0
      ? [...alternatives, NULL_REF]
      : alternatives.map((a, i) => (i === at ? { ...a, nullable: true } : a));
  return { ...base, [key]: listed };
}

/** Walks a schema and everything below it (properties, items, compositions), bottom-up. */
function walkSchema(schemas: Record<string, Schema>, schema: unknown): unknown {
  if (!isObject(schema) || typeof schema.$ref === 'string') return schema;
  const out: Schema = { ...schema };
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, walkSchema(schemas, v)]),
    );
  }
  if (isObject(schema.items)) out.items = walkSchema(schemas, schema.items);
  if (isObject(schema.additionalProperties))
    out.additionalProperties = walkSchema(schemas, schema.additionalProperties);
  for (const key of COMPOSITIONS) {
    const parts = schema[key];
    if (Array.isArray(parts)) out[key] = parts.map((p) => walkSchema(schemas, p));
  }
  return normalizeSchema(schemas, out);
}

/** Rewrites every `schema` found under `value` (parameters, request bodies, responses, headers). */
function walkOperations(schemas: Record<string, Schema>, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => walkOperations(schemas, v));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'schema' ? walkSchema(schemas, v) : walkOperations(schemas, v),
    ]),
  );
}

/**
 * Marks a request body optional (`required: false`) when it is an object none of whose fields is required: the
 * server reads a request without a body as `{}` (`POST E/orders/{code}/mark_paid/` with nothing), so a client
 * need not send one. The swagger plugin marks every `@Body()` required.
 */
export function optionalBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const out: Record<string, unknown> = { ...item };
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const body = item[method]?.requestBody;
      const schema = body && 'content' in body ? body.content['application/json']?.schema : undefined;
      if (!body || !schema || !isObject(schema)) continue;
      const target = resolve(schemas, schema);
      const required = Array.isArray(target.required) ? target.required : [];
      if (target.type !== 'object' || required.length > 0) continue;
      out[method] = { ...item[method], requestBody: { ...body, required: false } };
    }
    paths[path] = out;
  }
  return { ...document, paths: paths as OpenAPIObject['paths'] };
}

/**
 * Normalizes every schema of the document, in `components` and in the operations (see the file comment), and
 * adds {@link NULL_SCHEMA} when a schema refers to it.
 */
export function normalizeSchemas(document: OpenAPIObject): OpenAPIObject {
  const source = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const schemas = Object.fromEntries(
    Object.entries(source).map(([name, s]) => [name, walkSchema(source, s) as Schema]),
  );
  const paths = walkOperations(source, document.paths) as OpenAPIObject['paths'];
  const { schemas: _old, ...components } = document.components ?? {};
  const parameters = walkOperations(source, components.parameters) as typeof components.parameters;
  const headers = walkOperations(source, components.headers) as typeof components.headers;
  const responses = walkOperations(source, components.responses) as typeof components.responses;
  const usesNull = JSON.stringify({ schemas, paths }).includes(`"${NULL_REF.$ref}"`);
  return {
    ...document,
    paths,
    components: {
      ...components,
      ...(parameters ? { parameters } : {}),
      ...(headers ? { headers } : {}),
      ...(responses ? { responses } : {}),
      schemas: usesNull ? { ...schemas, [NULL_SCHEMA_NAME]: NULL_SCHEMA } : schemas,
    },
  };
}
