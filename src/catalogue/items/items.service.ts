import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { Inject, Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, FieldErrors, invalidPk, ResourceInUse, ValidationFailed } from '../../common/errors';
import type { RelatedSpec } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { parseDateTimeOrNull } from '../../common/values/datetime';
import { toI18n, toI18nOrNull } from '../../common/values/i18n';
import { Decimal, moneyOrNull, toMoney } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import { SalesChannelDirectory } from '../../organizers/sales-channels/sales-channel-directory.queries';
import { AddonsService } from '../addons/addons.service';
import { BundlesService } from '../bundles/bundles.service';
import { CategoriesService } from '../categories/categories.service';
import { ItemMetaPropertiesService } from '../item-meta-properties/item-meta-properties.service';
import { ProgramTimesService } from '../program-times/program-times.service';
import { normalizeChannels, translateSalesChannels } from '../sales-channels';
import { VariationsService } from '../variations/variations.service';
import { ITEM_IN_USE, ITEM_USAGE } from './item-usage.port';
import type { ItemUsage } from './item-usage.port';
import { CreateItemDto, ReplaceItemDto } from './item.dto';
import { Item } from './item.entity';
import { ItemQueries } from './item.queries';
import { ItemJson, ItemRelated, toItemJson } from './item.presenter';

export type { ItemUsage };

/** Keys of the inline collections: created with the item on create, refused on PUT/PATCH (compat §3.10). */
const INLINE_KEYS = ['variations', 'addons', 'bundles', 'program_times'] as const;

/** The merged input a write applies: every writable field, legacy and inline keys removed. */
type ItemInput = Complete<Omit<CreateItemDto, 'sales_channels' | (typeof INLINE_KEYS)[number]>>;

/** Defaults of optional item fields (compat §3.10); PUT resets omitted ones to these. */
const ITEM_DEFAULTS: Omit<ItemInput, 'name' | 'default_price'> = {
  internal_name: null,
  category: null,
  active: true,
  description: null,
  free_price: false,
  free_price_suggestion: null,
  tax_rule: null,
  admission: false,
  personalized: false,
  issue_giftcard: false,
  position: 0,
  generate_tickets: null,
  allow_waitinglist: true,
  available_from: null,
  available_from_mode: 'hide',
  available_until: null,
  available_until_mode: 'hide',
  require_bundling: false,
  require_voucher: false,
  hide_without_voucher: false,
  allow_cancel: true,
  min_per_order: null,
  max_per_order: null,
  hidden_if_available: null,
  hidden_if_item_available: null,
  hidden_if_item_available_mode: 'hide',
  checkin_attention: false,
  checkin_text: null,
  has_variations: false,
  require_approval: false,
  show_quota_left: null,
  original_price: null,
  meta_data: {},
  require_membership: false,
  require_membership_hidden: false,
  require_membership_types: [],
  grant_membership_type: null,
  grant_membership_duration_like_event: true,
  grant_membership_duration_days: 0,
  grant_membership_duration_months: 0,
  media_policy: null,
  media_type: null,
  validity_mode: null,
  validity_fixed_from: null,
  validity_fixed_until: null,
  validity_dynamic_duration_minutes: null,
  validity_dynamic_duration_hours: null,
  validity_dynamic_duration_days: null,
  validity_dynamic_duration_months: null,
  validity_dynamic_start_choice: false,
  validity_dynamic_start_choice_day_limit: null,
  all_sales_channels: true,
  limit_sales_channels: [],
};

/** Media types that can carry tickets (the others only gift cards), as in pretix's media type registry. */
const TICKET_MEDIA_TYPES: ReadonlySet<string> = new Set(['barcode']);

/** Audit content type of items (pretix model name). */
const CONTENT_TYPE = 'item';

/**
 * Items (products) of one event: list, detail, create (with inline variations, add-ons, bundles, program times), update,
 * delete (compat §3.10, spec "Conventions"). Every query is scoped by the event resolved by the permission guard.
 */
@Injectable()
@RendersChanges('item')
export class ItemsService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly categories: CategoriesService,
    private readonly variations: VariationsService,
    private readonly addons: AddonsService,
    private readonly bundles: BundlesService,
    private readonly programTimes: ProgramTimesService,
    private readonly metaProperties: ItemMetaPropertiesService,
    @Inject(ITEM_USAGE) private readonly usage: ItemUsage,
    private readonly queries: ItemQueries,
    private readonly channels: SalesChannelDirectory,
  ) {}

  /**
   * One page of the event's items, each with its variations, add-ons and bundles. Filters `active`, `admission`,
   * `free_price` (booleans, 400 otherwise), `category` (id), `tax_rate` (decimal: the rate of the item's tax
   * rule; `0`/`0.00`/`None` also match items without a rule), `search` (case-insensitive substring of any name
   * translation or the internal name). Ordering `id`, `position` (default `position,id`). At most six SQL
   * statements whatever the page size.
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<ItemJson>> {
    return this.queries.page(this.db, event.id, filters, page, this.related(), toItemJson);
  }

  /** The change feed's item objects ({@link details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(refs);
  }

  /** The detail answers of the items `refs` names that still exist in their event, by id; one statement. */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, ItemJson>> {
    if (refs.length === 0) return new Map();
    const rows = await this.queries.many(this.db, refIds(refs), this.related(), (item, r) => ({
      id: item.id,
      eventId: item.eventId,
      json: toItemJson(item, r),
    }));
    return byRef(refs, rows);
  }

  /** @throws NotFound for an id that is not an item of this event */
  async get(event: Event, id: number): Promise<ItemJson> {
    return this.queries.one(this.db, event.id, id, this.related(), toItemJson);
  }

  /**
   * Creates an item with its inline variations, add-ons, bundles and program times in one transaction; logs
   * `pretix.event.item.added`. `admission: true` without `personalized` makes the item personalized (compat); an
   * item created with variations has `has_variations: true`.
   * @throws ValidationFailed on invalid fields or cross-field rules (compat §3.10 messages); inline variation
   *   errors aligned with the list, add-on and bundle rule errors as flat lists under `addons`/`bundles`
   */
  async create(event: Event, principal: Principal, body: CreateItemDto): Promise<ItemJson> {
    return this.db.transaction(async (em) => {
      const errors = new ErrorCollector();
      const channels = await this.channels.identifiers(em, event.organizerId);
      const data = this.itemFields(body, errors, channels);
      const input = mergeInput(data, { ...ITEM_DEFAULTS } as ItemInput);
      if (input.admission && body.personalized === undefined) input.personalized = true;
      else if (body.admission === false && body.personalized === undefined) input.personalized = false;
      const { taxRate } = await this.validate(em, event, input, errors);
      const variations = await this.variations.prepareInline(em, event, body.variations ?? [], channels);
      const addonErrors = await this.addons.checkInline(em, event, body.addons ?? []);
      const bundleErrors = await this.bundles.checkInline(em, event, body.bundles ?? []);
      const programTimeErrors = this.programTimes.checkInline(body.program_times ?? []);
      const nested: FieldErrors = {};
      if (variations.errors) nested.variations = variations.errors;
      if (addonErrors.length > 0) nested.addons = addonErrors;
      if (bundleErrors.length > 0) nested.bundles = bundleErrors;
      if (programTimeErrors.length > 0) nested.program_times = programTimeErrors;
      if (!errors.empty || Object.keys(nested).length > 0) {
        throw new ValidationFailed({ ...errors.toJSON(), ...nested });
      }
      const item = em.create(Item, { eventId: event.id });
      this.apply(item, input);
      item.hasVariations = input.has_variations || variations.inputs.length > 0;
      await em.save(item);
      const related: ItemRelated = {
        taxRate,
        variations: sortByPosition(await this.variations.insertInline(em, item.id, variations.inputs)),
        addons: sortByPosition(await this.addons.insertInline(em, item.id, body.addons ?? [])),
        bundles: await this.bundles.insertInline(em, item.id, body.bundles ?? []),
        programTimes: await this.programTimes.insertInline(em, event.id, item.id, body.program_times ?? []),
        channels,
      };
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: item.id,
        action: 'pretix.event.item.added',
        data: { ...body },
      });
      return toItemJson(item, related);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change); rules are
   * checked on the merged data. `has_variations` is ignored. Logs `pretix.event.item.changed` only when the wire
   * object changed.
   * @throws ValidationFailed when `variations`, `addons`, `bundles` or `program_times` are sent, or on invalid data
   * @throws NotFound for an id that is not an item of this event
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<ReplaceItemDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<ItemJson> {
    return this.db.transaction(async (em) => {
      const item = await this.load(em, event, id, true);
      if (INLINE_KEYS.some((key) => body[key] !== undefined)) {
        throw ValidationFailed.nonField(
          'Updating add-ons, bundles, program times or variations via PATCH/PUT is not supported. Please use the dedicated nested endpoint.',
        );
      }
      const related = await this.relatedOf(em, item);
      const before = toItemJson(item, related);
      const errors = new ErrorCollector();
      const data = this.itemFields(body, errors, related.channels);
      const base: ItemInput = mode === 'patch' ? before : ({ ...ITEM_DEFAULTS } as ItemInput);
      const input = mergeInput(data, base);
      if (body.admission === false && body.personalized === undefined) input.personalized = false;
      const { taxRate } = await this.validate(em, event, input, errors);
      errors.throwIfAny();
      this.apply(item, input);
      const after = toItemJson(item, { ...related, taxRate });
      if (!isDeepStrictEqual(before, after)) {
        await em.save(item);
        await this.audit.record(em, principal, {
          organizerId: event.organizerId,
          eventId: event.id,
          contentType: CONTENT_TYPE,
          objectId: item.id,
          action: 'pretix.event.item.changed',
          data: { ...body },
        });
      }
      return after;
    });
  }

  /**
   * Deletes an item with its variations, add-ons and bundles, and the bundles of other items that include it
   * (foreign keys cascade). Other items' `hidden_if_item_available` pointing to it become null (foreign key
   * `ON DELETE SET NULL`); category cross-selling lists forget it in the same transaction. Logs
   * `pretix.event.item.deleted`.
   * @throws NotFound for an id that is not an item of this event
   * @throws ResourceInUse (403) when the item has been ordered (via the {@link ItemUsage} port, compat §3.10)
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const item = await this.load(em, event, id, true);
      if (await this.usage.isOrdered(em, item.id)) throw new ResourceInUse(ITEM_IN_USE);
      await this.usage.releaseCarts(em, item.id);
      await this.categories.forgetItem(em, event.id, item.id);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: item.id,
        action: 'pretix.event.item.deleted',
        data: {},
      });
      await em.delete(Item, { id: item.id, eventId: event.id });
    });
  }

  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<Item> {
    return findOrNotFound(em, Item, { id, eventId: event.id }, lock);
  }

  private relatedSpec?: RelatedSpec<ItemRelated>;

  /**
   * What an item's wire form needs besides its row (tax rate, variations, add-ons, bundles, the organizer's channels), as subqueries of the
   * item's own statement: a list page or a detail is one statement (README "API conventions").
   */
  private related(): RelatedSpec<ItemRelated> {
    return (this.relatedSpec ??= {
      taxRate: this.queries.taxRateOfItem(),
      variations: this.variations.relatedToItem('i.id'),
      addons: this.addons.relatedToItem('i.id'),
      bundles: this.bundles.relatedToItem('i.id'),
      programTimes: this.programTimes.relatedToItem('i.id'),
      channels: this.queries.channelsOfItem(this.channels.identifiersOfEventSql('i.event_id')),
    });
  }

  /** {@link related} of one loaded item, in one statement. */
  private relatedOf(em: EntityManager, item: Item): Promise<ItemRelated> {
    return this.queries.relatedOf(em, item.id, this.related());
  }

  /**
   * The item's own fields of a request body: inline keys removed, the legacy `sales_channels` translated
   * (contradictions are added to `errors`).
   */
  private itemFields(
    body: Partial<CreateItemDto | ReplaceItemDto>,
    errors: ErrorCollector,
    channels: readonly string[],
  ): Partial<ItemInput> {
    const { variations: _v, addons: _a, bundles: _b, program_times: _p, ...rest } = body;
    return translateSalesChannels(rest, errors, channels);
  }

  /**
   * Field references and cross-field rules of compat §3.10 on the merged input, added to `errors`: category, tax
   * rule and `hidden_if_available` quota of this event, `hidden_if_item_available` item of this event, membership
   * types of the organizer, meta data keys (item meta properties of the event, string values). Referenced rows
   * are share-locked until the transaction ends.
   * @returns the rate of the tax rule (decimal string), null without one
   */
  private async validate(
    em: EntityManager,
    event: Event,
    input: ItemInput,
    errors: ErrorCollector,
  ): Promise<{ taxRate: string | null }> {
    if (input.category !== null && !(await this.categories.belongsToEvent(em, event.id, input.category))) {
      errors.add('category', "The item's category must belong to the same event as the item.");
    }
    let taxRate: string | null = null;
    if (input.tax_rule !== null) {
      const rows = await this.queries.taxRuleRateForWrite(em, event.id, input.tax_rule);
      if (rows.length === 0) {
        errors.add('tax_rule', "The item's tax rule must belong to the same event as the item.");
      } else {
        taxRate = rows[0].rate;
      }
    }
    if (input.hidden_if_available !== null) {
      if (!(await this.queries.quotaOfEventForWrite(em, event.id, input.hidden_if_available)))
        errors.add('hidden_if_available', invalidPk(input.hidden_if_available));
    }
    if (
      input.hidden_if_item_available !== null &&
      !(await this.queries.itemOfEventForWrite(em, event.id, input.hidden_if_item_available))
    ) {
      errors.add('hidden_if_item_available', invalidPk(input.hidden_if_item_available));
    }
    const wantedTypes = [
      ...input.require_membership_types,
      ...(input.grant_membership_type === null ? [] : [input.grant_membership_type]),
    ];
    const knownTypes = await this.queries.existingMembershipTypes(em, event.organizerId, wantedTypes);
    const unknownType = input.require_membership_types.find((t) => !knownTypes.has(t));
    if (unknownType !== undefined) errors.add('require_membership_types', invalidPk(unknownType));
    if (input.grant_membership_type !== null && !knownTypes.has(input.grant_membership_type)) {
      errors.add('grant_membership_type', invalidPk(input.grant_membership_type));
    }
    const [metaProblem] = await this.metaProperties.checkMetaData(em, event.id, [input.meta_data]);
    if (metaProblem) errors.add('meta_data', metaProblem);

    if (
      input.min_per_order !== null &&
      input.max_per_order !== null &&
      input.min_per_order > input.max_per_order
    ) {
      errors.addNonField('The maximum number per order can not be lower than the minimum number per order.');
    }
    const from = parseDateTimeOrNull(input.available_from);
    const until = parseDateTimeOrNull(input.available_until);
    if (from && until && from > until) {
      errors.addNonField("The item's availability cannot end before it starts.");
    }
    if (input.media_policy) {
      if (!input.media_type) {
        errors.addNonField(
          'If you select a reusable media policy, you also need to select a reusable media type.',
        );
      } else if (!input.issue_giftcard && !TICKET_MEDIA_TYPES.has(input.media_type)) {
        errors.addNonField('The selected media type does not support usage for tickets currently.');
      } else if (input.issue_giftcard) {
        errors.addNonField(
          'You currently cannot create gift cards with a reusable media policy. Instead, gift cards for some reusable media types can be created or re-charged directly at the POS.',
        );
      }
    }
    if (input.personalized && !input.admission) {
      errors.addNonField('Only admission products can currently be personalized.');
    }
    if (input.issue_giftcard && taxRate !== null && new Decimal(taxRate).gt(0)) {
      errors.addNonField(
        'Gift card products should not be associated with non-zero tax rates since sales tax will be applied when the gift card is redeemed.',
      );
    }
    if (input.issue_giftcard && input.admission) {
      errors.addNonField('Gift card products should not be admission products at the same time.');
    }
    return { taxRate };
  }

  /** Writes the merged input onto the entity (everything but `has_variations`, which is fixed at creation). */
  private apply(item: Item, input: ItemInput): void {
    item.name = toI18n(input.name);
    item.internalName = input.internal_name;
    item.defaultPrice = toMoney(input.default_price);
    item.categoryId = input.category;
    item.active = input.active;
    item.description = toI18nOrNull(input.description);
    item.freePrice = input.free_price;
    item.freePriceSuggestion = moneyOrNull(input.free_price_suggestion);
    item.taxRuleId = input.tax_rule;
    item.admission = input.admission;
    item.personalized = input.personalized;
    item.issueGiftcard = input.issue_giftcard;
    item.position = input.position;
    item.generateTickets = input.generate_tickets;
    item.allowWaitinglist = input.allow_waitinglist;
    item.availableFrom = parseDateTimeOrNull(input.available_from);
    item.availableFromMode = input.available_from_mode;
    item.availableUntil = parseDateTimeOrNull(input.available_until);
    item.availableUntilMode = input.available_until_mode;
    item.requireBundling = input.require_bundling;
    item.requireVoucher = input.require_voucher;
    item.hideWithoutVoucher = input.hide_without_voucher;
    item.allowCancel = input.allow_cancel;
    item.minPerOrder = input.min_per_order;
    item.maxPerOrder = input.max_per_order;
    item.hiddenIfAvailable = input.hidden_if_available;
    item.hiddenIfItemAvailable = input.hidden_if_item_available;
    item.hiddenIfItemAvailableMode = input.hidden_if_item_available_mode;
    item.checkinAttention = input.checkin_attention;
    item.checkinText = input.checkin_text;
    item.requireApproval = input.require_approval;
    item.showQuotaLeft = input.show_quota_left;
    item.originalPrice = moneyOrNull(input.original_price);
    item.metaData = { ...input.meta_data };
    item.requireMembership = input.require_membership;
    item.requireMembershipHidden = input.require_membership_hidden;
    item.requireMembershipTypes = [...new Set(input.require_membership_types)].sort((a, b) => a - b);
    item.grantMembershipType = input.grant_membership_type;
    item.grantMembershipDurationLikeEvent = input.grant_membership_duration_like_event;
    item.grantMembershipDurationDays = input.grant_membership_duration_days;
    item.grantMembershipDurationMonths = input.grant_membership_duration_months;
    item.mediaPolicy = input.media_policy;
    item.mediaType = input.media_type;
    item.validityMode = input.validity_mode;
    item.validityFixedFrom = parseDateTimeOrNull(input.validity_fixed_from);
    item.validityFixedUntil = parseDateTimeOrNull(input.validity_fixed_until);
    item.validityDynamicDurationMinutes = input.validity_dynamic_duration_minutes;
    item.validityDynamicDurationHours = input.validity_dynamic_duration_hours;
    item.validityDynamicDurationDays = input.validity_dynamic_duration_days;
    item.validityDynamicDurationMonths = input.validity_dynamic_duration_months;
    item.validityDynamicStartChoice = input.validity_dynamic_start_choice;
    item.validityDynamicStartChoiceDayLimit = input.validity_dynamic_start_choice_day_limit;
    item.allSalesChannels = input.all_sales_channels;
    item.limitSalesChannels = normalizeChannels(input.limit_sales_channels);
  }
}

/** Entities in the order items list them inline: position, then id. */
function sortByPosition<T extends { position: number; id: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => a.position - b.position || a.id - b.id);
}
