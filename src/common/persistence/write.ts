/**
 * PUT/PATCH semantics written once (spec "Conventions" 5):
 * - create and PUT: the body over the resource's defaults (PUT resets omitted optional fields);
 * - PATCH: the body over the current state in wire form.
 * The merged wire object is what cross-field rules are checked against ("evaluated on merged stored+patched
 * data", compat §3) and what the service applies to the entity.
 */
export type WriteMode = 'create' | 'replace' | 'patch';

/** A DTO with every optional field filled in (the merged input a service applies). */
export type Complete<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

export function mergeInput<T extends object>(body: object, base: T): T {
  const out = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

/** The keys a request body actually sent (PATCH logs and change detection use it). */
export function sentKeys(body: object): string[] {
  return Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}
