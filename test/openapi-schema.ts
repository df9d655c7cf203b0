/**
 * A small checker of JSON values against the OpenAPI 3.0 schemas of the served document (the subset it uses:
 * `$ref`, `anyOf`/`oneOf`/`allOf`, `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
 * `nullable`), so e2e tests can compare a real answer with what the document promises.
 */

export type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  nullable?: boolean;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

export type Components = Record<string, Record<string, unknown> | undefined>;

/** The component a local `$ref` (`#/components/<kind>/<name>`) names; throws for a dangling one. */
export function resolveRef<T>(components: Components, ref: string): T {
  const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
  const found = match ? components[match[1]]?.[match[2]] : undefined;
  if (found === undefined) throw new Error(`dangling $ref ${ref}`);
  return found as T;
}

/** Follows `$ref`s until a non-reference object. */
export function deref<T extends object>(components: Components, value: T | { $ref: string }): T {
  let current: unknown = value;
  for (
    let hops = 0;
    hops < 10 && typeof current === 'object' && current !== null && '$ref' in current;
    hops++
  ) {
    current = resolveRef(components, (current as { $ref: string }).$ref);
  }
  return current as T;
}

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

/**
 * Where `value` departs from `schema` (`$.name: expected array, got string`), empty when it conforms.
 */
export function schemaProblems(components: Components, schema: Schema, value: unknown, at = '$'): string[] {
  const s = deref<Schema>(components, schema);
  if (value === null) return s.nullable || s.type === undefined ? [] : [`${at}: null but not nullable`];
  if (s.anyOf || s.oneOf) {
    const options = (s.anyOf ?? s.oneOf)!;
    const fits = options.filter((o) => schemaProblems(components, o, value, at).length === 0).length;
    if (s.anyOf ? fits === 0 : fits !== 1) return [`${at}: fits ${fits} of the alternatives`];
  }
  const problems = (s.allOf ?? []).flatMap((o) => schemaProblems(components, o, value, at));
  if (s.enum && !s.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} not in enum`);
  const actual = typeOf(value);
  if (s.type && s.type !== actual && !(s.type === 'number' && actual === 'integer')) {
    return [...problems, `${at}: expected ${s.type}, got ${actual}`];
  }
  if (actual === 'array' && s.items) {
    (value as unknown[]).forEach((v, i) =>
      problems.push(...schemaProblems(components, s.items!, v, `${at}[${i}]`)),
    );
  }
  if (actual === 'object' && (s.type === 'object' || s.properties || s.additionalProperties !== undefined)) {
    const object = value as Record<string, unknown>;
    for (const name of s.required ?? []) if (!(name in object)) problems.push(`${at}.${name}: missing`);
    for (const [name, v] of Object.entries(object)) {
      const property = s.properties?.[name];
      if (property) problems.push(...schemaProblems(components, property, v, `${at}.${name}`));
      else if (s.additionalProperties === false) problems.push(`${at}.${name}: not allowed`);
      else if (typeof s.additionalProperties === 'object') {
        problems.push(...schemaProblems(components, s.additionalProperties, v, `${at}.${name}`));
      }
    }
  }
  return problems;
}
