import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import { Inject, Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, invalidPk, ResourceInUse } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { parseDateTimeOrNull } from '../../common/values/datetime';
import { Decimal, toMoney } from '../../common/values/money';
import { SalesChannelDirectory } from '../../organizers/sales-channels/sales-channel-directory.queries';
import type { Event } from '../../organizers/event.entity';
import { DISCOUNT_USAGE, DiscountUsage } from './discount-usage.port';
import { normalizeChannels, translateSalesChannels } from '../sales-channels';
import type { CreateDiscountDto } from './discount.dto';
import { Discount } from './discount.entity';
import { DiscountQueries } from './discount.queries';
import { DiscountJson, DiscountProducts, toDiscountJson } from './discount.presenter';
import { discountConfigErrors } from './discount.rules';

/** The merged input a write applies: every writable field, the legacy `sales_channels` translated away. */
type DiscountInput = Complete<Omit<CreateDiscountDto, 'sales_channels'>>;

/** Defaults of optional discount fields (compat §3.25); PUT resets omitted ones to these. */
const DISCOUNT_DEFAULTS: Omit<DiscountInput, 'internal_name'> = {
  active: true,
  position: 0,
  all_sales_channels: true,
  limit_sales_channels: [],
  available_from: null,
  available_until: null,
  subevent_mode: 'mixed',
  subevent_date_from: null,
  subevent_date_until: null,
  condition_all_products: true,
  condition_limit_products: [],
  condition_apply_to_addons: true,
  condition_ignore_voucher_discounted: false,
  condition_min_count: 0,
  condition_min_value: '0.00',
  benefit_discount_matching_percent: '0.00',
  benefit_only_apply_to_cheapest_n_matches: null,
  benefit_same_products: true,
  benefit_limit_products: [],
  benefit_apply_to_addons: true,
  benefit_ignore_voucher_discounted: false,
};

/** Audit content type of discounts (pretix model name). */
const CONTENT_TYPE = 'discount';

export const DISCOUNT_IN_USE =
  'You cannot delete this discount because it already has been used as part of an order.';

/**
 * Automatic discounts of one event: list, detail, create, update, delete (compat §3.25, spec "Discount"). Every
 * query is scoped by the event resolved by the permission guard. The product lists live in the join tables
 * `discount_condition_item` and `discount_benefit_item`.
 */
@Injectable()
@RendersChanges('discount')
export class DiscountsService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    @Inject(DISCOUNT_USAGE) private readonly usage: DiscountUsage,
    private readonly queries: DiscountQueries,
    private readonly channels: SalesChannelDirectory,
  ) {}

  /**
   * One page of the event's discounts. Filter `active` (boolean, 400 otherwise); ordering `id`, `position`
   * (default `position,id`). One SQL statement whatever the page size (rows, count and product lists).
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<DiscountJson>> {
    const channels = await this.channels.identifiers(this.db, event.organizerId);
    return this.queries.page(this.db, event.id, filters, page, (d, p) => toDiscountJson(d, p, channels));
  }

  /** The change feed's discount objects ({@link details}). */
  renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(scope.organizer.id, refs);
  }

  /** The detail answers of the discounts `refs` names that still exist in their event, by id; two statements. */
  async details(organizerId: number, refs: readonly ObjectRef[]): Promise<Map<number, DiscountJson>> {
    if (refs.length === 0) return new Map();
    const channels = await this.channels.identifiers(this.db, organizerId);
    const rows = await this.queries.many(this.db, refIds(refs), (d, p) => ({
      id: d.id,
      eventId: d.eventId,
      json: toDiscountJson(d, p, channels),
    }));
    return byRef(refs, rows);
  }

  /** @throws NotFound for an id that is not a discount of this event */
  async get(event: Event, id: number): Promise<DiscountJson> {
    const channels = await this.channels.identifiers(this.db, event.organizerId);
    return this.queries.one(this.db, event.id, id, (d, p) => toDiscountJson(d, p, channels));
  }

  /**
   * Creates a discount; logs `pretix.event.discount.added`.
   * @throws ValidationFailed on invalid fields, products that are not items of this event, contradicting legacy
   * `sales_channels`, or a forbidden combination of conditions (compat §3.25 messages)
   */
  async create(event: Event, principal: Principal, body: CreateDiscountDto): Promise<DiscountJson> {
    return this.db.transaction(async (em) => {
      const errors = new ErrorCollector();
      const channels = await this.channels.identifiers(em, event.organizerId);
      const input = this.normalize(
        mergeInput(translateSalesChannels(body, errors, channels), { ...DISCOUNT_DEFAULTS } as DiscountInput),
      );
      await this.validate(em, event, input, errors);
      const discount = em.create(Discount, { eventId: event.id });
      this.apply(discount, input);
      await em.save(discount);
      await this.writeProducts(em, discount.id, input);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: discount.id,
        action: 'pretix.event.discount.added',
        data: { ...body },
      });
      return toDiscountJson(discount, productsOf(input), channels);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change); the rules are
   * checked on the merged data. Logs `pretix.event.discount.changed` only when the wire object changed.
   * @throws NotFound for an id that is not a discount of this event
   * @throws ValidationFailed as for create
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateDiscountDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<DiscountJson> {
    return this.db.transaction(async (em) => {
      const discount = await this.load(em, event, id, true);
      const channels = await this.channels.identifiers(em, event.organizerId);
      const before = await this.present(em, discount, channels);
      const errors = new ErrorCollector();
      const { sales_channels: _legacy, id: _id, ...current } = before;
      const base: DiscountInput = mode === 'patch' ? current : ({ ...DISCOUNT_DEFAULTS } as DiscountInput);
      const input = this.normalize(mergeInput(translateSalesChannels(body, errors, channels), base));
      await this.validate(em, event, input, errors);
      this.apply(discount, input);
      const after = toDiscountJson(discount, productsOf(input), channels);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(discount);
        if (
          !isDeepStrictEqual(before.condition_limit_products, after.condition_limit_products) ||
          !isDeepStrictEqual(before.benefit_limit_products, after.benefit_limit_products)
        ) {
          await this.writeProducts(em, discount.id, input);
        }
        await this.audit.record(em, principal, {
          organizerId: event.organizerId,
          eventId: event.id,
          contentType: CONTENT_TYPE,
          objectId: discount.id,
          action: 'pretix.event.discount.changed',
          data: { ...body },
        });
      }
      return after;
    });
  }

  /**
   * Deletes a discount (cart positions using it lose it, via the {@link DiscountUsage} port); logs
   * `pretix.event.discount.deleted`.
   * @throws NotFound for an id that is not a discount of this event
   * @throws ResourceInUse (403) when order positions used the discount
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const discount = await this.load(em, event, id, true);
      if (await this.usage.isOrdered(em, discount.id)) throw new ResourceInUse(DISCOUNT_IN_USE);
      await this.usage.releaseCarts(em, discount.id);
      await this.audit.record(em, principal, {
        organizerId: event.organizerId,
        eventId: event.id,
        contentType: CONTENT_TYPE,
        objectId: discount.id,
        action: 'pretix.event.discount.deleted',
        data: {},
      });
      await em.delete(Discount, { id: discount.id, eventId: event.id });
    });
  }

  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<Discount> {
    return findOrNotFound(em, Discount, { id, eventId: event.id }, lock);
  }

  private async present(
    em: EntityManager,
    discount: Discount,
    channels: readonly string[],
  ): Promise<DiscountJson> {
    const products = await this.products(em, [discount.id]);
    return toDiscountJson(discount, products.get(discount.id) ?? { condition: [], benefit: [] }, channels);
  }

  /** The product lists of several discounts in one statement, item ids ascending. */
  private async products(em: EntityManager, ids: number[]): Promise<Map<number, DiscountProducts>> {
    const out = new Map<number, DiscountProducts>(ids.map((id) => [id, { condition: [], benefit: [] }]));
    if (ids.length === 0) return out;
    const rows = await this.queries.productRows(em, ids);
    for (const row of rows) out.get(Number(row.discount_id))?.[row.kind].push(Number(row.item_id));
    return out;
  }

  /** Replaces the rows of both join tables of a discount with the input's lists. */
  private async writeProducts(em: EntityManager, discountId: number, input: DiscountInput): Promise<void> {
    await this.queries.writeProducts(
      em,
      discountId,
      input.condition_limit_products,
      input.benefit_limit_products,
    );
  }

  /**
   * The canonical form of a merged input: product lists distinct and sorted, channels normalised (a true
   * `all_sales_channels` clears `limit_sales_channels`), "cheapest 0" as null (pretix accepts 0 as "off").
   */
  private normalize(input: DiscountInput): DiscountInput {
    const ids = (list: number[]) => [...new Set(list)].sort((a, b) => a - b);
    return {
      ...input,
      condition_limit_products: ids(input.condition_limit_products),
      benefit_limit_products: ids(input.benefit_limit_products),
      limit_sales_channels: input.all_sales_channels ? [] : normalizeChannels(input.limit_sales_channels),
      benefit_only_apply_to_cheapest_n_matches: input.benefit_only_apply_to_cheapest_n_matches || null,
    };
  }

  /**
   * Product references (items of this event, share-locked until the transaction ends so a concurrent item
   * delete waits) and the combination rules of compat §3.25 on the merged input, added to `errors`.
   * @throws ValidationFailed when any error was collected (including those of the sales channel translation)
   */
  private async validate(
    em: EntityManager,
    event: Event,
    input: DiscountInput,
    errors: ErrorCollector,
  ): Promise<void> {
    const wanted = [...new Set([...input.condition_limit_products, ...input.benefit_limit_products])];
    if (wanted.length > 0) {
      const found = await this.queries.itemsOfEventForWrite(em, event.id, wanted);
      const known = new Set(found.map((r) => Number(r.id)));
      for (const field of ['condition_limit_products', 'benefit_limit_products'] as const) {
        const missing = input[field].find((x) => !known.has(x));
        if (missing !== undefined) errors.add(field, invalidPk(missing));
      }
    }
    for (const message of discountConfigErrors(input)) errors.addNonField(message);
    errors.throwIfAny();
  }

  private apply(discount: Discount, input: DiscountInput): void {
    discount.active = input.active;
    discount.internalName = input.internal_name;
    discount.position = input.position;
    discount.allSalesChannels = input.all_sales_channels;
    discount.limitSalesChannels = input.limit_sales_channels;
    discount.availableFrom = parseDateTimeOrNull(input.available_from);
    discount.availableUntil = parseDateTimeOrNull(input.available_until);
    discount.subeventMode = input.subevent_mode;
    discount.subeventDateFrom = parseDateTimeOrNull(input.subevent_date_from);
    discount.subeventDateUntil = parseDateTimeOrNull(input.subevent_date_until);
    discount.conditionAllProducts = input.condition_all_products;
    discount.conditionApplyToAddons = input.condition_apply_to_addons;
    discount.conditionIgnoreVoucherDiscounted = input.condition_ignore_voucher_discounted;
    discount.conditionMinCount = input.condition_min_count;
    discount.conditionMinValue = toMoney(input.condition_min_value);
    discount.benefitDiscountMatchingPercent = new Decimal(input.benefit_discount_matching_percent).toFixed(2);
    discount.benefitOnlyApplyToCheapestNMatches = input.benefit_only_apply_to_cheapest_n_matches;
    discount.benefitSameProducts = input.benefit_same_products;
    discount.benefitApplyToAddons = input.benefit_apply_to_addons;
    discount.benefitIgnoreVoucherDiscounted = input.benefit_ignore_voucher_discounted;
  }
}

/** The product lists of a normalised input. */
function productsOf(input: DiscountInput): DiscountProducts {
  return { condition: [...input.condition_limit_products], benefit: [...input.benefit_limit_products] };
}
