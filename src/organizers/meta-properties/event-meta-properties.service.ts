import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { findOrNotFound } from '../../common/persistence/find';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import type { Organizer } from '../organizer.entity';
import type { CreateEventMetaPropertyDto } from './event-meta-property.dto';
import { EventMetaProperty } from './event-meta-property.entity';
import { EventMetaPropertyJson, toEventMetaPropertyJson } from './event-meta-property.presenter';
import { EventMetaPropertyQueries } from './event-meta-property.queries';

type PropertyInput = Complete<CreateEventMetaPropertyDto>;

/** Defaults of optional fields; PUT resets omitted ones to these. */
const DEFAULTS: Omit<PropertyInput, 'name'> = { default: '', allowed_values: null, protected: false };

const CONTENT_TYPE = 'eventmetaproperty';
const UNIQUE_INDEX = 'uq_event_meta_property_name';
export const DUPLICATE_NAME = 'A property with this name already exists.';

/**
 * Event meta-data properties of one organizer (`O/event_meta_properties/`): list, detail, create, update,
 * delete. A rename carries the stored values of the organizer's events and dates over to the new name; a delete
 * removes them (pretix deletes the values with the property). Logs `pretix.property.added|changed|deleted`.
 */
@Injectable()
export class EventMetaPropertiesService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: EventMetaPropertyQueries,
  ) {}

  /** One page, ordered by `id` (default) or `name`. Two statements. */
  async list(
    organizer: Organizer,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<EventMetaPropertyJson>> {
    return this.queries.page(this.db, organizer.id, filters, page, (rows) =>
      rows.map(toEventMetaPropertyJson),
    );
  }

  /** @throws NotFound for an id that is not a property of this organizer */
  async get(organizer: Organizer, id: number): Promise<EventMetaPropertyJson> {
    return toEventMetaPropertyJson(
      await findOrNotFound(this.db, EventMetaProperty, { id, organizerId: organizer.id }),
    );
  }

  /** @throws ValidationFailed on a duplicate name or a default outside `allowed_values` */
  async create(
    organizer: Organizer,
    principal: Principal,
    body: CreateEventMetaPropertyDto,
  ): Promise<EventMetaPropertyJson> {
    const input = mergeInput(body, { ...DEFAULTS } as PropertyInput);
    return uniqueAsValidation(UNIQUE_INDEX, 'name', DUPLICATE_NAME, () =>
      this.db.transaction(async (em) => {
        await this.validate(em, organizer, input, null);
        const property = em.create(EventMetaProperty, { organizerId: organizer.id });
        this.apply(property, input);
        await em.save(property);
        await this.log(em, organizer, principal, property.id, 'pretix.property.added', body);
        return toEventMetaPropertyJson(property);
      }),
    );
  }

  /**
   * PUT (`replace`) or PATCH (`patch`). A new name renames the key in the stored `meta_data` of the organizer's
   * events and dates.
   * @throws NotFound for an id that is not a property of this organizer
   * @throws ValidationFailed as {@link create}
   */
  async update(
    organizer: Organizer,
    id: number,
    principal: Principal,
    body: Partial<CreateEventMetaPropertyDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<EventMetaPropertyJson> {
    return uniqueAsValidation(UNIQUE_INDEX, 'name', DUPLICATE_NAME, () =>
      this.db.transaction(async (em) => {
        const property = await findOrNotFound(em, EventMetaProperty, { id, organizerId: organizer.id }, true);
        const before = toEventMetaPropertyJson(property);
        const base: PropertyInput = mode === 'patch' ? before : ({ ...DEFAULTS } as PropertyInput);
        const input = mergeInput(body, base);
        await this.validate(em, organizer, input, property.id);
        const oldName = property.name;
        this.apply(property, input);
        const after = toEventMetaPropertyJson(property);
        if (isDeepStrictEqual(before, after)) return after;
        await em.save(property);
        if (oldName !== property.name) {
          await this.queries.renameValues(em, organizer.id, oldName, property.name);
        }
        await this.log(em, organizer, principal, property.id, 'pretix.property.changed', body);
        return after;
      }),
    );
  }

  /** Deletes the property and its values on the organizer's events and dates. */
  async delete(organizer: Organizer, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const property = await findOrNotFound(em, EventMetaProperty, { id, organizerId: organizer.id }, true);
      await this.queries.deleteValues(em, organizer.id, property.name);
      await this.log(em, organizer, principal, property.id, 'pretix.property.deleted', {});
      await em.delete(EventMetaProperty, { id: property.id });
    });
  }

  private async validate(
    em: EntityManager,
    organizer: Organizer,
    input: PropertyInput,
    id: number | null,
  ): Promise<void> {
    const errors = new ErrorCollector();
    const clash = await this.queries.nameTaken(em, organizer.id, input.name, id);
    if (clash) errors.add('name', DUPLICATE_NAME);
    const allowed = input.allowed_values ?? [];
    if (allowed.length > 0 && input.default !== '' && !allowed.includes(input.default)) {
      errors.add('default', 'The default value must be one of the allowed values.');
    }
    errors.throwIfAny();
  }

  private apply(property: EventMetaProperty, input: PropertyInput): void {
    property.name = input.name;
    property.default = input.default;
    property.allowedValues = input.allowed_values;
    property.protected = input.protected;
  }

  private log(
    em: EntityManager,
    organizer: Organizer,
    principal: Principal,
    objectId: number,
    action: string,
    body: object,
  ): Promise<void> {
    return this.audit.record(em, principal, {
      organizerId: organizer.id,
      eventId: null,
      contentType: CONTENT_TYPE,
      objectId,
      action,
      data: { ...body },
    });
  }
}
