import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ValidationFailed } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { findOrNotFound } from '../../common/persistence/find';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import type { Event } from '../../organizers/event.entity';
import type { EventItemMeta } from '../../organizers/event-item-meta.port';
import type { CreateItemMetaPropertyDto } from './item-meta-property.dto';
import { ItemMetaProperty } from './item-meta-property.entity';
import { ItemMetaPropertyJson, toItemMetaPropertyJson } from './item-meta-property.presenter';
import { ItemMetaPropertyQueries } from './item-meta-property.queries';

type PropertyInput = Complete<CreateItemMetaPropertyDto>;

/** Defaults of optional fields; PUT resets omitted ones to these. */
const DEFAULTS: Omit<PropertyInput, 'name' | 'allowed_values'> = { default: '', required: false };

const CONTENT_TYPE = 'itemmetaproperty';
const UNIQUE_INDEX = 'uq_item_meta_property_name';
/** Our refusal of a second property of the same name (pretix does not check; its values are keyed by name here). */
export const DUPLICATE_NAME = 'An item meta property with this name already exists.';

/** pretix's message for a `meta_data` key that names no item meta property of the event. */
export const unknownProperty = (name: string): string => `Item meta data property '${name}' does not exist.`;

/** pretix's message for a `meta_data` that is not an object of strings. */
export const META_DATA_SHAPE = 'meta_data needs to be an object (str -> str).';

/**
 * Item meta properties of one event (`E/item_meta_properties/`, pretix "Item meta properties"): list, detail,
 * create, update, delete, and the `meta_data` checks of items and variations. A rename carries the values stored
 * on the event's items and variations over to the new name; a delete removes them (pretix deletes the values with
 * the property). Logs `pretix.event.item_meta_property.added|changed|deleted`. Also the catalogue's answer to the
 * tenancy roots' EVENT_ITEM_META port (the event's `item_meta_properties` field).
 */
@Injectable()
export class ItemMetaPropertiesService implements EventItemMeta {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: ItemMetaPropertyQueries,
  ) {}

  /** One page, ordered by `name` (default) or `id`. Two statements. */
  list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<ItemMetaPropertyJson>> {
    return this.queries.page(this.db, event.id, filters, page, (rows) => rows.map(toItemMetaPropertyJson));
  }

  /** @throws NotFound for an id that is not a property of this event */
  async get(event: Event, id: number): Promise<ItemMetaPropertyJson> {
    return toItemMetaPropertyJson(await findOrNotFound(this.db, ItemMetaProperty, { id, eventId: event.id }));
  }

  /** @throws ValidationFailed on a duplicate name */
  create(event: Event, principal: Principal, body: CreateItemMetaPropertyDto): Promise<ItemMetaPropertyJson> {
    const input = mergeInput(body, { ...DEFAULTS } as PropertyInput);
    return uniqueAsValidation(UNIQUE_INDEX, 'name', DUPLICATE_NAME, () =>
      this.db.transaction(async (em) => {
        await this.checkName(em, event, input.name, null);
        const property = em.create(ItemMetaProperty, { eventId: event.id });
        apply(property, input);
        await em.save(property);
        await this.audit.recordOnEvent(
          em,
          principal,
          event,
          CONTENT_TYPE,
          property.id,
          'pretix.event.item_meta_property.added',
          body,
        );
        return toItemMetaPropertyJson(property);
      }),
    );
  }

  /**
   * PUT (`replace`) or PATCH (`patch`). A new name renames the key in the stored `meta_data` of the event's items
   * and variations. Logs `pretix.event.item_meta_property.changed` when the wire object changed.
   * @throws NotFound for an id that is not a property of this event
   * @throws ValidationFailed on a duplicate name
   */
  update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateItemMetaPropertyDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<ItemMetaPropertyJson> {
    return uniqueAsValidation(UNIQUE_INDEX, 'name', DUPLICATE_NAME, () =>
      this.db.transaction(async (em) => {
        const property = await findOrNotFound(em, ItemMetaProperty, { id, eventId: event.id }, true);
        const before = toItemMetaPropertyJson(property);
        const input = mergeInput(body, mode === 'patch' ? before : ({ ...DEFAULTS } as PropertyInput));
        await this.checkName(em, event, input.name, property.id);
        const oldName = property.name;
        apply(property, input);
        const after = toItemMetaPropertyJson(property);
        if (isDeepStrictEqual(before, after)) return after;
        await em.save(property);
        if (oldName !== property.name) await this.queries.renameValues(em, event.id, oldName, property.name);
        await this.audit.recordOnEvent(
          em,
          principal,
          event,
          CONTENT_TYPE,
          property.id,
          'pretix.event.item_meta_property.changed',
          body,
        );
        return after;
      }),
    );
  }

  /** Deletes the property and its values on the event's items and variations. */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const property = await findOrNotFound(em, ItemMetaProperty, { id, eventId: event.id }, true);
      await this.queries.deleteValues(em, event.id, [property.name]);
      await this.audit.recordOnEvent(
        em,
        principal,
        event,
        CONTENT_TYPE,
        property.id,
        'pretix.event.item_meta_property.deleted',
        {
          id: property.id,
        },
      );
      await em.delete(ItemMetaProperty, { id: property.id });
    });
  }

  /**
   * Checks `meta_data` objects of items or variations of the event (pretix `validate_meta_data`): every key must
   * name a property of the event, every value be a string. The properties stay share-locked until the transaction
   * ends. One statement (none when every object is empty).
   * @returns per object, the first problem's message or null
   */
  async checkMetaData(
    em: EntityManager,
    eventId: number,
    objects: readonly Record<string, unknown>[],
  ): Promise<(string | null)[]> {
    if (objects.every((o) => Object.keys(o).length === 0)) return objects.map(() => null);
    const names = await this.queries.namesForWrite(em, eventId);
    return objects.map((o) => {
      if (Object.values(o).some((v) => typeof v !== 'string')) return META_DATA_SHAPE;
      const unknown = Object.keys(o).find((key) => !names.has(key));
      return unknown === undefined ? null : unknownProperty(unknown);
    });
  }

  /** {@link EventItemMeta.defaults}. */
  defaults(em: EntityManager, eventIds: readonly number[]): Promise<Map<number, Record<string, string>>> {
    return this.queries.defaults(em, eventIds);
  }

  /** {@link EventItemMeta.replace}: the properties are locked in id order first. */
  async replace(em: EntityManager, eventId: number, values: Record<string, string>): Promise<void> {
    const current = await this.queries.allForUpdate(em, eventId);
    const gone = current.filter((p) => !Object.prototype.hasOwnProperty.call(values, p.name));
    if (gone.length > 0) {
      await this.queries.deleteValues(
        em,
        eventId,
        gone.map((p) => p.name),
      );
      await em.delete(
        ItemMetaProperty,
        gone.map((p) => p.id),
      );
    }
    const byName = new Map(current.map((p) => [p.name, p]));
    const changed: ItemMetaProperty[] = [];
    for (const [name, value] of Object.entries(values)) {
      const existing = byName.get(name);
      if (existing && existing.default === value) continue;
      const property =
        existing ?? em.create(ItemMetaProperty, { eventId, name, required: false, allowedValues: null });
      property.default = value;
      changed.push(property);
    }
    if (changed.length > 0) await em.save(changed);
  }

  private async checkName(em: EntityManager, event: Event, name: string, id: number | null): Promise<void> {
    if (await this.queries.nameTaken(em, event.id, name, id))
      throw ValidationFailed.field('name', DUPLICATE_NAME);
  }
}

function apply(property: ItemMetaProperty, input: PropertyInput): void {
  property.name = input.name;
  property.default = input.default;
  property.required = input.required;
  property.allowedValues = input.allowed_values === null ? null : input.allowed_values.join('\n');
}
