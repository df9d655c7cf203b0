import type { Related } from '../../common/listing/page-query';
import { Injectable } from '@nestjs/common';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ValidationFailed } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { toMoney } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import { findEventItem } from '../items/item-lookup';
import { ItemQueries } from '../items/item.queries';
import type { Item } from '../items/item.entity';
import { CreateBundleDto } from './bundle.dto';
import { BundleJson, toBundleJson } from './bundle.presenter';
import { BundleQueries } from './bundle.queries';
import { ItemBundle } from './item-bundle.entity';

/** The merged input a write applies. */
export type BundleInput = Complete<CreateBundleDto>;

/** Defaults of optional bundle fields (compat §3.13); PUT resets omitted ones to these. */
const BUNDLE_DEFAULTS: Omit<BundleInput, 'bundled_item'> = {
  bundled_variation: null,
  count: 1,
  designated_price: '0.00',
};

/** Bundle changes are logged on the base item (pretix), so the item list's `Last-Modified` moves with them. */
const CONTENT_TYPE = 'item';

/** What the bundle rules need to know about the bundled item and variation, read under lock. */
interface BundledFacts {
  /** Bundled item id -> facts, for items of the event only. */
  items: Map<number, { hasVariations: boolean; hasBundles: boolean }>;
  /** Variation id -> its item id, for variations of items of the event only. */
  variations: Map<number, number>;
}

/**
 * The first broken bundle rule of compat §3.13 on merged input, in pretix's order, or null: the bundled item
 * belongs to the event; a variation is given iff it has variations, and it is one of its variations; it is not the
 * bundling item; it has no bundles of its own.
 * @param baseItemId the bundling item, null for inline bundles of an item being created
 */
function bundleProblem(input: BundleInput, baseItemId: number | null, facts: BundledFacts): string | null {
  const bundled = facts.items.get(input.bundled_item);
  if (!bundled) return 'The bundled item must belong to the same event as the item.';
  if (bundled.hasVariations && input.bundled_variation === null) {
    return 'A variation needs to be set for this item.';
  }
  if (
    input.bundled_variation !== null &&
    facts.variations.get(input.bundled_variation) !== input.bundled_item
  ) {
    return 'The chosen variation does not belong to this item.';
  }
  if (input.bundled_item === baseItemId) {
    return 'The bundled item must not be the same item as the bundling one.';
  }
  if (bundled.hasBundles) return 'The bundled item must not have bundles on its own.';
  return null;
}

/**
 * Bundles of one item (`E/items/{item}/bundles/`; spec "Item bundle", compat §3.13), and the pieces item create
 * uses for inline bundles. Writes lock the bundling and the bundled item rows (in id order) so that two concurrent
 * writes cannot build bundles of bundles. Logs `pretix.event.item.bundles.added|changed|removed` on the base item.
 */
@Injectable()
export class BundlesService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: BundleQueries,
    private readonly items: ItemQueries,
  ) {}

  /**
   * One page of the item's bundles; ordering `id` (the default, as pretix). At most three SQL statements whatever the
   * page size.
   * @throws ParentNotFound (403) when the item is not an item of this event
   */
  async list(
    event: Event,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<BundleJson>> {
    const item = await findEventItem(this.db, event.id, itemId);
    return this.queries.page(this.db, item.id, filters, page, (rows) => rows.map(toBundleJson));
  }

  /** @throws ParentNotFound (403) for an unknown item of this event; NotFound for a bundle of another item */
  async get(event: Event, itemId: number, id: number): Promise<BundleJson> {
    const item = await findEventItem(this.db, event.id, itemId);
    return toBundleJson(await this.load(this.db, item.id, id, false));
  }

  /**
   * Creates a bundle; logs `pretix.event.item.bundles.added` on the item.
   * @throws ParentNotFound (403) when the item is not an item of this event
   * @throws ValidationFailed `{"non_field_errors": [...]}` with the first broken rule (compat §3.13)
   */
  async create(
    event: Event,
    principal: Principal,
    itemId: number,
    body: CreateBundleDto,
  ): Promise<BundleJson> {
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const input = mergeInput(body, { ...BUNDLE_DEFAULTS } as BundleInput);
      await this.items.lockItems(em, [item.id, input.bundled_item]);
      await this.validate(em, event, item, input);
      const bundle = em.create(ItemBundle, { baseItemId: item.id });
      this.apply(bundle, input);
      await em.save(bundle);
      await this.log(em, event, principal, item, 'pretix.event.item.bundles.added', {
        ...body,
        id: bundle.id,
      });
      return toBundleJson(bundle);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults) or PATCH (`patch`: only sent fields change); the rules are
   * checked on the merged data. Logs `pretix.event.item.bundles.changed` only when the wire object changed.
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for a bundle of another item
   * @throws ValidationFailed as {@link create}
   */
  async update(
    event: Event,
    principal: Principal,
    itemId: number,
    id: number,
    body: Partial<CreateBundleDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<BundleJson> {
    return this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const merge = (current: BundleJson): BundleInput =>
        mergeInput(body, mode === 'patch' ? current : ({ ...BUNDLE_DEFAULTS } as BundleInput));
      // Lock both items in id order first, then the bundle row; the bundled item is known only from the merge.
      const preliminary = merge(toBundleJson(await this.load(em, item.id, id, false)));
      await this.items.lockItems(em, [item.id, preliminary.bundled_item]);
      const bundle = await this.load(em, item.id, id, true);
      const before = toBundleJson(bundle);
      const input = merge(before);
      if (input.bundled_item !== preliminary.bundled_item) await this.items.lockItems(em, [input.bundled_item]);
      await this.validate(em, event, item, input);
      this.apply(bundle, input);
      const after = toBundleJson(bundle);
      if (!isDeepStrictEqual(before, after)) {
        await em.save(bundle);
        await this.log(em, event, principal, item, 'pretix.event.item.bundles.changed', {
          ...body,
          id: bundle.id,
        });
      }
      return after;
    });
  }

  /**
   * Deletes a bundle; logs `pretix.event.item.bundles.removed` on the item.
   * @throws ParentNotFound (403) for an unknown item of this event; NotFound for a bundle of another item
   */
  async delete(event: Event, principal: Principal, itemId: number, id: number): Promise<void> {
    await this.db.transaction(async (em) => {
      const item = await findEventItem(em, event.id, itemId);
      const bundle = await this.load(em, item.id, id, true);
      await em.delete(ItemBundle, { id: bundle.id, baseItemId: item.id });
      await this.log(em, event, principal, item, 'pretix.event.item.bundles.removed', {
        ...toBundleJson(bundle),
      });
    });
  }

  /**
   * Checks an item's inline bundles on create (compat §3.10): pretix's messages as one flat list (the first
   * broken rule of each entry, each message once), empty when all are valid. The bundled items stay locked until
   * the transaction ends. Three SQL statements.
   */
  async checkInline(em: EntityManager, event: Event, bodies: CreateBundleDto[]): Promise<string[]> {
    const inputs = this.inlineInputs(bodies);
    await this.items.lockItems(
      em,
      inputs.map((input) => input.bundled_item),
    );
    const facts = await this.facts(em, event, inputs);
    const messages = new Set<string>();
    for (const input of inputs) {
      const problem = bundleProblem(input, null, facts);
      if (problem) messages.add(problem);
    }
    return [...messages];
  }

  /** Inserts checked inline bundles of a new item (same transaction); returns them in input order. */
  async insertInline(em: EntityManager, itemId: number, bodies: CreateBundleDto[]): Promise<ItemBundle[]> {
    const bundles = this.inlineInputs(bodies).map((input) => {
      const bundle = em.create(ItemBundle, { baseItemId: itemId });
      this.apply(bundle, input);
      return bundle;
    });
    if (bundles.length > 0) await em.save(bundles);
    return bundles;
  }

  /** The bundles of the item whose id is the SQL expression `itemId`, by id (style.md "Data access"). */
  relatedToItem(itemId: string): Related<ItemBundle[]> {
    return this.queries.relatedToItem(this.db, itemId);
  }

  private inlineInputs(bodies: CreateBundleDto[]): BundleInput[] {
    return bodies.map((body) => mergeInput(body, { ...BUNDLE_DEFAULTS } as BundleInput));
  }

  private async load(em: EntityManager, itemId: number, id: number, lock: boolean): Promise<ItemBundle> {
    return findOrNotFound(em, ItemBundle, { id, baseItemId: itemId }, lock);
  }

  /** The facts of the bundled items and variations of `inputs` within the event: two SQL statements. */
  private async facts(em: EntityManager, event: Event, inputs: BundleInput[]): Promise<BundledFacts> {
    const itemIds = [...new Set(inputs.map((input) => input.bundled_item))];
    const variationIds = [
      ...new Set(
        inputs.flatMap((input) => (input.bundled_variation === null ? [] : [input.bundled_variation])),
      ),
    ];
    const items = await this.queries.bundledItems(em, event.id, itemIds);
    const variations = await this.queries.bundledVariations(em, event.id, variationIds);
    return {
      items: new Map(
        items.map((r) => [Number(r.id), { hasVariations: r.has_variations, hasBundles: r.has_bundles }]),
      ),
      variations: new Map(variations.map((r) => [Number(r.id), Number(r.item_id)])),
    };
  }

  /** @throws ValidationFailed `{"non_field_errors": [<first broken rule>]}` */
  private async validate(em: EntityManager, event: Event, item: Item, input: BundleInput): Promise<void> {
    const problem = bundleProblem(input, item.id, await this.facts(em, event, [input]));
    if (problem) throw ValidationFailed.nonField(problem);
  }

  private apply(bundle: ItemBundle, input: BundleInput): void {
    bundle.bundledItemId = input.bundled_item;
    bundle.bundledVariationId = input.bundled_variation;
    bundle.count = input.count;
    bundle.designatedPrice = toMoney(input.designated_price);
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
