import type { EventMetaProperty } from './event-meta-property.entity';

/** What the meta-data rules need of a property. */
export type MetaPropertyRule = Pick<EventMetaProperty, 'name' | 'default' | 'allowedValues' | 'protected'>;

/** pretix's messages (compat §3.17 "Validation"). */
export const META_MESSAGES = {
  unknown: (key: string) => `Meta data property '${key}' does not exist.`,
  notAllowed: (key: string, value: string) => `Meta data property '${key}' does not allow value '${value}'.`,
  notString: (key: string) => `Meta data property '${key}' needs a string value.`,
};

/** The outcome of {@link resolveMetaData}: the values to store, or the messages for the `meta_data` field. */
export type MetaDataResult =
  { values: Record<string, string>; errors: [] } | { values: null; errors: string[] };

/**
 * The `meta_data` an event or date stores after a write (compat §3.17): the sent object replaces the stored
 * one (an empty object clears it), every key must name a property of the organizer and every value be a string
 * among the property's `allowed_values` when those are set. Protected properties are left as they were (sent
 * values silently ignored) unless the writer may change organizer settings.
 * @param sent the `meta_data` of the merged input
 * @param before the stored values (`{}` on creation)
 */
export function resolveMetaData(
  properties: readonly MetaPropertyRule[],
  sent: Record<string, unknown>,
  before: Record<string, string>,
  mayWriteProtected: boolean,
): MetaDataResult {
  const byName = new Map(properties.map((p) => [p.name, p]));
  const errors: string[] = [];
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(sent)) {
    const property = byName.get(key);
    if (!property) {
      errors.push(META_MESSAGES.unknown(key));
      continue;
    }
    if (property.protected && !mayWriteProtected) continue;
    if (typeof value !== 'string') {
      errors.push(META_MESSAGES.notString(key));
      continue;
    }
    const allowed = property.allowedValues ?? [];
    if (allowed.length > 0 && !allowed.includes(value)) {
      errors.push(META_MESSAGES.notAllowed(key, value));
      continue;
    }
    values[key] = value;
  }
  if (errors.length > 0) return { values: null, errors };
  if (!mayWriteProtected) {
    for (const [key, value] of Object.entries(before)) {
      if (byName.get(key)?.protected) values[key] = value;
    }
  }
  return { values, errors: [] };
}
