import type { EntityManager } from 'typeorm';

/**
 * Port: the item meta properties of events, shown and written through the event's `item_meta_properties` field
 * (pretix's EventSerializer: an object of property name to default). The catalogue owns the properties; declared
 * here, provided by the catalogue (`ItemMetaPropertiesModule`) and handed to OrganizersModule by the composition
 * roots; mandatory.
 */
export const EVENT_ITEM_META = Symbol('EventItemMeta');

export interface EventItemMeta {
  /** Name to default of each event's properties, by event id (every id present, `{}` when none); one statement. */
  defaults(em: EntityManager, eventIds: readonly number[]): Promise<Map<number, Record<string, string>>>;

  /**
   * Makes the event's properties those of `values` (pretix's event create/update): defaults of existing names are
   * set, new names are created, properties not named are deleted with their values on items and variations.
   */
  replace(em: EntityManager, eventId: number, values: Record<string, string>): Promise<void>;
}
