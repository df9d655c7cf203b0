import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager, In } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, invalidPk } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { toI18n } from '../../common/values/i18n';
import type { Event } from '../../organizers/event.entity';
import type { CreateCategoryDto } from './category.dto';
import { CategoryJson, toCategoryJson } from './category.presenter';
import { CategoryQueries } from './category.queries';
import { ItemCategory } from './item-category.entity';

/** Defaults of optional category fields (compat §3.9); PUT resets omitted ones to these. */
const CATEGORY_DEFAULTS: Omit<CategoryInput, 'name'> = {
  internal_name: null,
  description: {},
  position: 0,
  is_addon: false,
  cross_selling_mode: null,
  cross_selling_condition: null,
  cross_selling_match_products: [],
};

type CategoryInput = Complete<CreateCategoryDto>;

/** Audit content type of categories (pretix model name). */
const CONTENT_TYPE = 'itemcategory';

/**
 * Item categories of one event: list, detail, create, update, delete (compat §3.9, spec "Conventions").
 * Every query is scoped by the event resolved by the permission guard.
 */
@Injectable()
@RendersChanges('category')
export class CategoriesService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: CategoryQueries,
  ) {}

  /**
   * One page of the event's categories. Filter `is_addon` (400 on a non-boolean); ordering `id`, `position`
   * (default `position,id`). Two SQL statements whatever the page size.
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<CategoryJson>> {
    return this.queries.page(this.db, event.id, filters, page, (rows) => rows.map(toCategoryJson));
  }

  /** The change feed's category objects ({@link details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(refs);
  }

  /** The detail answers of the categories `refs` names that still exist in their event, by id; one statement. */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, CategoryJson>> {
    if (refs.length === 0) return new Map();
    const rows = await this.db.find(ItemCategory, { where: { id: In(refIds(refs)) } });
    return byRef(
      refs,
      rows.map((r) => ({ id: r.id, eventId: r.eventId, json: toCategoryJson(r) })),
    );
  }

  /** @throws NotFound for an id that is not a category of this event */
  async get(event: Event, id: number): Promise<CategoryJson> {
    return toCategoryJson(await this.load(this.db, event, id, false));
  }

  /**
   * Creates a category; logs `pretix.event.category.added`.
   * @throws ValidationFailed on unknown cross-selling items
   */
  async create(event: Event, principal: Principal, body: CreateCategoryDto): Promise<CategoryJson> {
    const input = mergeInput(body, { ...CATEGORY_DEFAULTS } as CategoryInput);
    return this.db.transaction(async (em) => {
      await this.validate(em, event, input);
      const category = em.create(ItemCategory, { eventId: event.id });
      this.apply(category, input);
      await em.save(category);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: category.id,
        action: 'pretix.event.category.added',
        data: { ...body },
      });
      return toCategoryJson(category);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change). Logs
   * `pretix.event.category.changed` only when the wire object changed.
   * @throws NotFound for an id that is not a category of this event
   * @throws ValidationFailed on unknown cross-selling items
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateCategoryDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<CategoryJson> {
    return this.db.transaction(async (em) => {
      const category = await this.load(em, event, id, true);
      const before = toCategoryJson(category);
      const base: CategoryInput = mode === 'patch' ? before : ({ ...CATEGORY_DEFAULTS } as CategoryInput);
      const input = mergeInput(body, base);
      await this.validate(em, event, input);
      this.apply(category, input);
      const after = toCategoryJson(category);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(category);
        await this.audit.record(em, principal, {
          organizerId: event.organizerId,
          eventId: event.id,
          contentType: CONTENT_TYPE,
          objectId: category.id,
          action: 'pretix.event.category.changed',
          data: { ...body },
        });
      }
      return after;
    });
  }

  /**
   * Deletes a category; its items keep existing with `category = null` (the foreign key sets null, compat
   * §3.9). Logs `pretix.event.category.deleted`.
   * @throws NotFound for an id that is not a category of this event
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const category = await this.load(em, event, id, true);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: category.id,
        action: 'pretix.event.category.deleted',
        data: {},
      });
      await em.delete(ItemCategory, { id: category.id, eventId: event.id });
    });
  }

  /**
   * Whether `id` is a category of the event (items use it to check their `category`). The row is share-locked
   * until the caller's transaction ends, so a concurrent delete cannot slip in between check and write.
   */
  async belongsToEvent(em: EntityManager, eventId: number, id: number): Promise<boolean> {
    return this.queries.belongsToEvent(em, eventId, id);
  }

  /** Removes a deleted item from the cross-selling lists of the event's categories (same transaction). */
  async forgetItem(em: EntityManager, eventId: number, itemId: number): Promise<void> {
    await this.queries.forgetItem(em, eventId, itemId);
  }

  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<ItemCategory> {
    return findOrNotFound(em, ItemCategory, { id, eventId: event.id }, lock);
  }

  private async validate(em: EntityManager, event: Event, input: CategoryInput): Promise<void> {
    const errors = new ErrorCollector();
    const wanted = [...new Set(input.cross_selling_match_products)];
    if (wanted.length > 0) {
      // Share-locked: a concurrent item delete waits and then removes the id from this list (forgetItem).
      const found = await this.queries.itemsOfEventForWrite(em, event.id, wanted);
      const known = new Set(found.map((r) => Number(r.id)));
      const missing = wanted.find((x) => !known.has(x));
      if (missing !== undefined) errors.add('cross_selling_match_products', invalidPk(missing));
    }
    errors.throwIfAny();
  }

  private apply(category: ItemCategory, input: CategoryInput): void {
    category.name = toI18n(input.name);
    category.internalName = input.internal_name;
    category.description = toI18n(input.description);
    category.position = input.position;
    category.isAddon = input.is_addon;
    category.crossSellingMode = input.cross_selling_mode;
    category.crossSellingCondition = input.cross_selling_condition;
    category.crossSellingMatchProducts = [...new Set(input.cross_selling_match_products)].sort(
      (a, b) => a - b,
    );
  }
}
