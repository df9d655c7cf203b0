import type { Related } from '../../common/listing/page-query';
import { Inject, Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, FieldErrors, invalidPk, NotFound, Refused, ResourceInUse } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { parseDateTimeOrNull } from '../../common/values/datetime';
import { toI18n, toI18nOrNull } from '../../common/values/i18n';
import { moneyOrNull } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import { SalesChannelDirectory } from '../../organizers/sales-channels/sales-channel-directory.queries';
import { findEventItem } from '../items/item-lookup';
import { ItemQueries } from '../items/item.queries';
import { ItemMetaPropertiesService } from '../item-meta-properties/item-meta-properties.service';
import { ITEM_USAGE, ItemUsage, VARIATION_IN_USE } from '../items/item-usage.port';
import type { Item } from '../items/item.entity';
import { normalizeChannels, translateSalesChannels } from '../sales-channels';
import { ItemVariation } from './item-variation.entity';
import { VariationQueries } from './variation.queries';
import { CreateVariationDto } from './variation.dto';
import { toVariationJson, VariationJson } from './variation.presenter';

/** The merged input a write applies: every writable field, the legacy `sales_channels` translated away. */
export type VariationInput = Complete<Omit<CreateVariationDto, 'sales_channels'>>;

/** Defaults of optional variation fields (compat §3.11); PUT resets omitted ones to these. */
const VARIATION_DEFAULTS: Omit<VariationInput, 'value'> = {
  default_price: null,
  free_price_suggestion: null,
  original_price: null,
  active: true,
  description: null,
  position: 0,
  checkin_attention: false,
  checkin_text: null,
  require_approval: false,
  require_membership: false,
  require_membership_hidden: false,
  require_membership_types: [],
  all_sales_channels: true,
  limit_sales_channels: [],
  available_from: null,
  available_from_mode: 'hide',
  available_until: null,
  available_until_mode: 'hide',
  hide_without_voucher: false,
  meta_data: {},
};

/** pretix logs variation changes on the item, so the item list's `Last-Modified` moves with them (compat §1.7). */
const CONTENT_TYPE = 'item';

/** 403 detail for `POST` on an item created without variations (compat §3.11). */
export const NO_VARIATIONS =
  'This variation cannot be created because the item does not have variations. Changing a product without variations to a product with variations is not allowed.';
/** 403 detail for deleting an item's only variation (compat §3.11). */
export const ONLY_VARIATION =
  'This variation cannot be deleted because it is the only variation. Changing a product with variations to a product without variations is not allowed.';

/**
 * Variations of one item (`E/items/{item}/variations/`; spec "Item variation", compat §3.11), and the pieces item
 * create uses for inline variations. The item is looked up within the event of the URL (unknown or foreign: 404);
 * changes are logged on the item (`pretix.event.item.variation.added|changed|deleted`, object id = item id).
 */
@Injectable()
export class VariationsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    @Inject(ITEM_USAGE) private readonly usage: ItemUsage,
    private readonly queries: VariationQueries,
    private readonly items: ItemQueries,
    private readonly metaProperties: ItemMetaPropertiesService,
    private readonly channels: SalesChannelDirectory,
  ) {}

  /**
   * One page of the item's variations. Filter `active` (boolean, 400 otherwise) and `search` (case-insensitive
   * substring of any translation of `value`); ordering `id`, `position` (default `position,id`, as items, where
   * pretix defaults to `id`). At most three SQL statements whatever the page size.
   * @throws ParentNotFound (403) when the item is not an item of this event
   */
  async list(
    event: Event,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<VariationJson>> {
    const item = await findEventItem(this.db, event.id, itemId);
    const channels = await this.channels.identifiers(this.db, event.organizerId);
    return this.queries.page(this.db, item.id, filters, page, (rows) =>
      rows.map((v) => toVariationJson(v, item.defaultPrice, channels)),
    );
  }

  /** @throws ParentNotFound (403) for an unknown item of this event; NotFound for a variation of another item */
  async get(event: Event, itemId: number, id: number): Promise<VariationJson> {
    const item = await findEventItem(this.db, event.id, itemId);
    const found = await this.queries.oneWithChannels(this.db, item.id, id, (e) =>
      this.channels.identifiersOfEventSql(e),
    );
    if (!found) throw new NotFound();
    return toVariationJson(found.variation, item.defaultPrice, found.channels);
  }

  /**
   * Creates a variation; logs `pretix.event.item.variation.added` on the item.
   * @throws ParentNotFound (403) when the item is not an item of this event
   * @throws ValidationFailed on unknown membership types, meta data keys or contradicting sales channels
   * @throws Refused (403) when the item was created without variations (compat §3.11)
   */
  async create(
    event: Event,
    principal: Principal,
    itemId: number,
    body: CreateVariationDto,
  ): Promise<VariationJson> {
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const errors = new ErrorCollector();
      const channels = await this.channels.identifiers(em, event.organizerId);
      const input = mergeInput(translateSalesChannels(body, errors, channels), {
        ...VARIATION_DEFAULTS,
      } as VariationInput);
      await this.validate(em, event, input, errors);
      errors.throwIfAny();
      if (!item.hasVariations) throw new Refused(NO_VARIATIONS);
      const variation = em.create(ItemVariation, { itemId: item.id });
      this.apply(variation, input);
      await em.save(variation);
      await this.log(em, event, principal, item, 'pretix.event.item.variation.added', {
        ...body,
        id: variation.id,
      });
      return toVariationJson(variation, item.defaultPrice, channels);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change); `price` is
   * read-only. Logs `pretix.event.item.variation.changed` on the item only when the wire object changed.
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for a variation of another item
   * @throws ValidationFailed on invalid data
   */
  async update(
    event: Event,
    principal: Principal,
    itemId: number,
    id: number,
    body: Partial<CreateVariationDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<VariationJson> {
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const variation = await this.load(em, item.id, id, true);
      const channels = await this.channels.identifiers(em, event.organizerId);
      const before = toVariationJson(variation, item.defaultPrice, channels);
      const errors = new ErrorCollector();
      const base: VariationInput = mode === 'patch' ? before : ({ ...VARIATION_DEFAULTS } as VariationInput);
      const input = mergeInput(translateSalesChannels(body, errors, channels), base);
      await this.validate(em, event, input, errors);
      errors.throwIfAny();
      this.apply(variation, input);
      const after = toVariationJson(variation, item.defaultPrice, channels);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(variation);
        await this.log(em, event, principal, item, 'pretix.event.item.variation.changed', {
          ...body,
          id: variation.id,
        });
      }
      return after;
    });
  }

  /**
   * Deletes a variation; logs `pretix.event.item.variation.deleted` on the item. The item row is locked, so two
   * concurrent deletes cannot remove the last two variations.
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for a variation of another item
   * @throws Refused (403) when the variation is ordered or in a cart (via the {@link ItemUsage} port), or is the
   *   item's only variation (compat §3.11, in pretix's order)
   */
  async delete(event: Event, principal: Principal, itemId: number, id: number): Promise<void> {
    await this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId, 'update');
      const variation = await this.load(em, item.id, id, true);
      if (await this.usage.isVariationInUse(em, variation.id)) {
        throw new ResourceInUse(VARIATION_IN_USE);
      }
      if ((await em.count(ItemVariation, { where: { itemId: item.id } })) <= 1) {
        throw new Refused(ONLY_VARIATION);
      }
      await em.delete(ItemVariation, { id: variation.id, itemId: item.id });
      await this.log(em, event, principal, item, 'pretix.event.item.variation.deleted', {
        id: variation.id,
        value: variation.value,
      });
    });
  }

  /**
   * Validates an item's inline variations on create (compat §3.10): the merged inputs, and per-entry errors
   * aligned with the request list (`{}` for a valid entry), or null when all are valid. One SQL statement.
   */
  async prepareInline(
    em: EntityManager,
    event: Event,
    bodies: CreateVariationDto[],
    channels: readonly string[],
  ): Promise<{ inputs: VariationInput[]; errors: FieldErrors[] | null }> {
    const collectors = bodies.map(() => new ErrorCollector());
    const inputs = bodies.map((body, i) =>
      mergeInput(translateSalesChannels(body, collectors[i], channels), {
        ...VARIATION_DEFAULTS,
      } as VariationInput),
    );
    const known = await this.items.existingMembershipTypes(
      em,
      event.organizerId,
      inputs.flatMap((input) => input.require_membership_types),
    );
    const metaProblems = await this.metaProperties.checkMetaData(
      em,
      event.id,
      inputs.map((input) => input.meta_data),
    );
    inputs.forEach((input, i) => this.check(input, known, metaProblems[i], collectors[i]));
    const errors = collectors.some((c) => !c.empty) ? collectors.map((c) => c.toJSON()) : null;
    return { inputs, errors };
  }

  /** Inserts validated inline variations of a new item (same transaction); returns them in input order. */
  async insertInline(em: EntityManager, itemId: number, inputs: VariationInput[]): Promise<ItemVariation[]> {
    const variations = inputs.map((input) => {
      const variation = em.create(ItemVariation, { itemId });
      this.apply(variation, input);
      return variation;
    });
    if (variations.length > 0) await em.save(variations);
    return variations;
  }

  /**
   * The variations of the item whose id is the SQL expression `itemId`, by position then id, read in the
   * statement of the item's page (style.md "Data access").
   */
  relatedToItem(itemId: string): Related<ItemVariation[]> {
    return this.queries.relatedToItem(this.db, itemId);
  }

  private async load(em: EntityManager, itemId: number, id: number, lock: boolean): Promise<ItemVariation> {
    return findOrNotFound(em, ItemVariation, { id, itemId }, lock);
  }

  private async validate(
    em: EntityManager,
    event: Event,
    input: VariationInput,
    errors: ErrorCollector,
  ): Promise<void> {
    const known = await this.items.existingMembershipTypes(
      em,
      event.organizerId,
      input.require_membership_types,
    );
    const [metaProblem] = await this.metaProperties.checkMetaData(em, event.id, [input.meta_data]);
    this.check(input, known, metaProblem, errors);
  }

  /**
   * Reference rules on the merged input: membership types of the organizer (`known`), and the problem of the meta
   * data (`ItemMetaPropertiesService.checkMetaData`, null when fine).
   */
  private check(
    input: VariationInput,
    known: Set<number>,
    metaProblem: string | null,
    errors: ErrorCollector,
  ): void {
    const unknownType = input.require_membership_types.find((id) => !known.has(id));
    if (unknownType !== undefined) errors.add('require_membership_types', invalidPk(unknownType));
    if (metaProblem) errors.add('meta_data', metaProblem);
  }

  private apply(variation: ItemVariation, input: VariationInput): void {
    variation.value = toI18n(input.value);
    variation.defaultPrice = moneyOrNull(input.default_price);
    variation.freePriceSuggestion = moneyOrNull(input.free_price_suggestion);
    variation.originalPrice = moneyOrNull(input.original_price);
    variation.active = input.active;
    variation.description = toI18nOrNull(input.description);
    variation.position = input.position;
    variation.checkinAttention = input.checkin_attention;
    variation.checkinText = input.checkin_text;
    variation.requireApproval = input.require_approval;
    variation.requireMembership = input.require_membership;
    variation.requireMembershipHidden = input.require_membership_hidden;
    variation.requireMembershipTypes = [...new Set(input.require_membership_types)].sort((a, b) => a - b);
    variation.allSalesChannels = input.all_sales_channels;
    variation.limitSalesChannels = normalizeChannels(input.limit_sales_channels);
    variation.availableFrom = parseDateTimeOrNull(input.available_from);
    variation.availableFromMode = input.available_from_mode;
    variation.availableUntil = parseDateTimeOrNull(input.available_until);
    variation.availableUntilMode = input.available_until_mode;
    variation.hideWithoutVoucher = input.hide_without_voucher;
    variation.metaData = { ...input.meta_data };
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
