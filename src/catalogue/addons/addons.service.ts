import type { Related } from '../../common/listing/page-query';
import { Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { uniqueAsValidation } from '../../common/persistence/unique';
import type { Event } from '../../organizers/event.entity';
import { findEventItem } from '../items/item-lookup';
import type { Item } from '../items/item.entity';
import { CreateAddonDto } from './addon.dto';
import { AddonJson, toAddonJson } from './addon.presenter';
import { AddonQueries } from './addon.queries';
import { ItemAddon } from './item-addon.entity';

/** The merged input a write applies. */
export type AddonInput = Complete<CreateAddonDto>;

/** Defaults of optional add-on fields (compat §3.12); PUT resets omitted ones to these. */
const ADDON_DEFAULTS: Omit<AddonInput, 'addon_category'> = {
  min_count: 0,
  max_count: 1,
  position: 0,
  multi_allowed: false,
  price_included: false,
};

const FOREIGN_CATEGORY = "The add-on's category must belong to the same event as the item.";
const DUPLICATE_CATEGORY = 'The item already has an add-on of this category.';
const MIN_NEGATIVE = 'The minimum count needs to be equal to or greater than zero.';
const MAX_NEGATIVE = 'The maximum count needs to be equal to or greater than zero.';
const MAX_BELOW_MIN = 'The maximum count needs to be greater than the minimum count.';

/** Add-on changes are logged on the base item (pretix), so the item list's `Last-Modified` moves with them. */
const CONTENT_TYPE = 'item';

/** One broken rule: the field it belongs to (null: a cross-field rule) and pretix's message. */
interface Problem {
  field: 'addon_category' | 'min_count' | 'max_count' | null;
  message: string;
}

/**
 * The add-on rules of compat §3.12 on merged input, in pretix's order: the category (of this event, not twice on
 * the item), each count not negative, and, only when those hold, `max_count >= min_count`.
 */
function addonProblems(input: AddonInput, categoryOfEvent: boolean, duplicate: boolean): Problem[] {
  const problems: Problem[] = [];
  if (!categoryOfEvent) problems.push({ field: 'addon_category', message: FOREIGN_CATEGORY });
  else if (duplicate) problems.push({ field: 'addon_category', message: DUPLICATE_CATEGORY });
  if (input.min_count < 0) problems.push({ field: 'min_count', message: MIN_NEGATIVE });
  if (input.max_count < 0) problems.push({ field: 'max_count', message: MAX_NEGATIVE });
  if (problems.length === 0 && input.max_count < input.min_count) {
    problems.push({ field: null, message: MAX_BELOW_MIN });
  }
  return problems;
}

/**
 * Add-ons of one item (`E/items/{item}/addons/`, PATCH/PUT also at the spec's singular `addon/{id}/`; spec "Item
 * add-on", compat §3.12), and the pieces item create uses for inline add-ons. Logs
 * `pretix.event.item.addons.added|changed|removed` on the base item.
 */
@Injectable()
export class AddonsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: AddonQueries,
  ) {}

  /**
   * One page of the item's add-ons; ordering `id`, `position` (default `position,id`). At most three SQL
   * statements whatever the page size.
   * @throws ParentNotFound (403) when the item is not an item of this event
   */
  async list(
    event: Event,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<AddonJson>> {
    const item = await findEventItem(this.db, event.id, itemId);
    return this.queries.page(this.db, item.id, filters, page, (rows) => rows.map(toAddonJson));
  }

  /** @throws ParentNotFound (403) for an unknown item of this event; NotFound for an add-on of another item */
  async get(event: Event, itemId: number, id: number): Promise<AddonJson> {
    const item = await findEventItem(this.db, event.id, itemId);
    return toAddonJson(await this.load(this.db, item.id, id, false));
  }

  /**
   * Creates an add-on; logs `pretix.event.item.addons.added` on the item.
   * @throws ParentNotFound (403) when the item is not an item of this event
   * @throws ValidationFailed `{"addon_category": [...]}` (foreign category, category already used on the item),
   *   `{"min_count"|"max_count": [...]}` (negative), `{"non_field_errors": [...]}` (max below min)
   */
  async create(event: Event, principal: Principal, itemId: number, body: CreateAddonDto): Promise<AddonJson> {
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const input = mergeInput(body, { ...ADDON_DEFAULTS } as AddonInput);
      await this.validate(em, event, item, null, input);
      const addon = em.create(ItemAddon, { baseItemId: item.id });
      this.apply(addon, input);
      await this.save(em, addon);
      await this.log(em, event, principal, item, 'pretix.event.item.addons.added', { ...body, id: addon.id });
      return toAddonJson(addon);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change); rules are
   * checked on the merged data. Logs `pretix.event.item.addons.changed` only when the wire object changed.
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for an add-on of another item
   * @throws ValidationFailed as {@link create}
   */
  async update(
    event: Event,
    principal: Principal,
    itemId: number,
    id: number,
    body: Partial<CreateAddonDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<AddonJson> {
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const addon = await this.load(em, item.id, id, true);
      const before = toAddonJson(addon);
      const base: AddonInput = mode === 'patch' ? before : ({ ...ADDON_DEFAULTS } as AddonInput);
      const input = mergeInput(body, base);
      await this.validate(em, event, item, addon.id, input);
      this.apply(addon, input);
      const after = toAddonJson(addon);
      if (!isDeepStrictEqual(before, after)) {
        await this.save(em, addon);
        await this.log(em, event, principal, item, 'pretix.event.item.addons.changed', {
          ...body,
          id: addon.id,
        });
      }
      return after;
    });
  }

  /**
   * Deletes an add-on; logs `pretix.event.item.addons.removed` on the item.
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for an add-on of another item
   */
  async delete(event: Event, principal: Principal, itemId: number, id: number): Promise<void> {
    await this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const addon = await this.load(em, item.id, id, true);
      await em.delete(ItemAddon, { id: addon.id, baseItemId: item.id });
      await this.log(em, event, principal, item, 'pretix.event.item.addons.removed', {
        ...toAddonJson(addon),
      });
    });
  }

  /**
   * Checks an item's inline add-ons on create (compat §3.10): pretix's messages as one flat list (the first broken
   * rule of each entry, each message once), empty when all are valid. A category listed twice in the request is
   * refused like one already on the item. One SQL statement.
   */
  async checkInline(em: EntityManager, event: Event, bodies: CreateAddonDto[]): Promise<string[]> {
    const inputs = this.inlineInputs(bodies);
    const ofEvent = await this.categoriesOfEvent(
      em,
      event.id,
      inputs.map((input) => input.addon_category),
    );
    const seen = new Set<number>();
    const messages = new Set<string>();
    for (const input of inputs) {
      const problems = addonProblems(
        input,
        ofEvent.has(input.addon_category),
        seen.has(input.addon_category),
      );
      seen.add(input.addon_category);
      if (problems.length > 0) messages.add(problems[0].message);
    }
    return [...messages];
  }

  /** Inserts checked inline add-ons of a new item (same transaction); returns them in input order. */
  async insertInline(em: EntityManager, itemId: number, bodies: CreateAddonDto[]): Promise<ItemAddon[]> {
    const addons = this.inlineInputs(bodies).map((input) => {
      const addon = em.create(ItemAddon, { baseItemId: itemId });
      this.apply(addon, input);
      return addon;
    });
    if (addons.length > 0) await em.save(addons);
    return addons;
  }

  /**
   * The add-ons of the item whose id is the SQL expression `itemId`, by position then id (style.md "Data access").
   */
  relatedToItem(itemId: string): Related<ItemAddon[]> {
    return this.queries.relatedToItem(this.db, itemId);
  }

  private inlineInputs(bodies: CreateAddonDto[]): AddonInput[] {
    return bodies.map((body) => mergeInput(body, { ...ADDON_DEFAULTS } as AddonInput));
  }

  private async load(em: EntityManager, itemId: number, id: number, lock: boolean): Promise<ItemAddon> {
    return findOrNotFound(em, ItemAddon, { id, baseItemId: itemId }, lock);
  }

  /**
   * Ids among `ids` that are categories of the event, share-locked so that a concurrent category delete waits for
   * this write.
   */
  private async categoriesOfEvent(em: EntityManager, eventId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.queries.categoriesOfEvent(em, eventId, [...new Set(ids)]);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** @throws ValidationFailed with field errors, or the cross-field error when the fields are fine */
  private async validate(
    em: EntityManager,
    event: Event,
    item: Item,
    addonId: number | null,
    input: AddonInput,
  ): Promise<void> {
    const ofEvent = (await this.categoriesOfEvent(em, event.id, [input.addon_category])).size > 0;
    let duplicate = false;
    if (ofEvent) {
      duplicate = await this.queries.categoryTaken(em, item.id, input.addon_category, addonId ?? 0);
    }
    const errors = new ErrorCollector();
    for (const problem of addonProblems(input, ofEvent, duplicate)) {
      if (problem.field) errors.add(problem.field, problem.message);
      else errors.addNonField(problem.message);
    }
    errors.throwIfAny();
  }

  /** Saves; a concurrent write that put the same category on the item first loses with the same 400. */
  private async save(em: EntityManager, addon: ItemAddon): Promise<void> {
    await uniqueAsValidation('uq_item_addon_category', 'addon_category', DUPLICATE_CATEGORY, () =>
      em.save(addon),
    );
  }

  private apply(addon: ItemAddon, input: AddonInput): void {
    addon.addonCategoryId = input.addon_category;
    addon.minCount = input.min_count;
    addon.maxCount = input.max_count;
    addon.position = input.position;
    addon.multiAllowed = input.multi_allowed;
    addon.priceIncluded = input.price_included;
  }

  private async log(
    em: EntityManager,
    event: Event,
    principal: Principal,
    item: Item,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: CONTENT_TYPE,
      objectId: item.id,
      action,
      data,
    });
  }
}
