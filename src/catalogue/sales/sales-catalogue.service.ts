import type { SubEventRef } from '../../organizers/subevents/subevent-scope';
import { Decimal } from '../../common/values/money';
import { SubEventPricesService, SubEventProductWindow } from '../subevent-prices/subevent-prices.service';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import type { Event } from '../../organizers/event.entity';
import { SubEventQueries } from '../../organizers/subevents/subevent.queries';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import type { QuotaProducts } from '../quotas/quota-availability';
import { QuotaLookup } from '../quotas/quota-lookup.service';
import type { SaleVoucher } from '../vouchers/voucher-redemption.rules';
import {
  SaleAddonConfig,
  SaleItem,
  SalesCatalogueQueries,
  SaleTaxRule,
  SaleVariation,
} from './sales-catalogue.queries';

export type { SaleAddonConfig, SaleItem, SaleTaxRule, SaleVariation };

/** A question an answer refers to (spec "Question"), with its one-letter type. */
export interface SaleQuestion {
  id: number;
  eventId: number;
  type: string;
  identifier: string;
}

/** An option of a choice question. */
export interface SaleQuestionOption {
  id: number;
  questionId: number;
  answer: I18nString;
  identifier: string;
  position: number;
}

/** What a sales request refers to, by id (or code, upper-cased, for vouchers). */
export interface SalesCatalogueQuery {
  itemIds?: readonly (number | null | undefined)[];
  variationIds?: readonly (number | null | undefined)[];
  /** Also load the event's tax rules of the loaded items. */
  itemTaxRules?: boolean;
  /** Further tax rules of the event (order fees). */
  taxRuleIds?: readonly (number | null | undefined)[];
  voucherIds?: readonly (number | null | undefined)[];
  voucherCodes?: readonly (string | null | undefined)[];
  /** Quotas of the event to confirm (voucher references). */
  quotaIds?: readonly (number | null | undefined)[];
  /** Dates of a series sent (resolved through the tenancy roots, with their price overrides). */
  subeventIds?: readonly (number | null | undefined)[];
}

/** The rows a sales request refers to; absent keys are unknown ids. */
export interface SalesCatalogueRows {
  /** Items by id, of any event: callers tell "other event" from "unknown" with {@link ofOrganizer}. */
  items: Map<number, SaleItem>;
  /** Variations by id, of any event. */
  variations: Map<number, SaleVariation>;
  /** Tax rules of the event by id. */
  taxRules: Map<number, SaleTaxRule>;
  /** Vouchers of the event by id and by upper-cased code (not locked: see VoucherRedemptions). */
  vouchersById: Map<number, SaleVoucher>;
  vouchersByCode: Map<string, SaleVoucher>;
  /** Products of the quotas of quota-bound vouchers, by quota id. */
  quotaProducts: Map<number, QuotaProducts>;
  /** Ids among the asked quotas that are quotas of the event. */
  quotas: Set<number>;
  /** Whether an event (of a loaded item or variation) belongs to the organizer of the event asked about. */
  ofOrganizer(eventId: number): boolean;
  /** Dates asked for, by id, of any event (callers tell "another event's" from "unknown"). */
  subevents: Map<number, SubEventRef>;
  /**
   * Overridden prices on the dates asked for (money strings): keys `s<date>/i<item>`, `s<date>/v<variation>`
   * (see {@link subeventListedPrice}).
   */
  subeventPrices: Map<string, string>;
  /** Products disabled or limited to a window on the dates asked for (see {@link subeventProductAvailable}). */
  subeventAvailability: Map<string, SubEventProductWindow>;
}

/** pretix's message for a product not sold on a date (`disabled` or outside its window; compat §3.17). */
export const notOnThisDateMessage = (product: string): string =>
  `The product "${product}" is not available on this date.`;

/**
 * Whether a product may be sold on a date at `now` (pretix `SubEventItem.is_available`): neither the item's nor
 * the variation's override of the date is `disabled`, and `now` lies in both windows (`available_from` <= now
 * <= `available_until`, null bounds open). Always true without a date.
 */
export function subeventProductAvailable(
  rules: ReadonlyMap<string, SubEventProductWindow>,
  subeventId: number | null,
  itemId: number,
  variationId: number | null,
  now: Date,
): boolean {
  if (subeventId === null) return true;
  const keys = [`s${subeventId}/i${itemId}`];
  if (variationId !== null) keys.push(`s${subeventId}/v${variationId}`);
  return keys.every((key) => {
    const w = rules.get(key);
    if (!w) return true;
    if (w.disabled) return false;
    if (w.availableFrom && w.availableFrom > now) return false;
    return !(w.availableUntil && w.availableUntil < now);
  });
}

/**
 * The listed price of a product on a date of a series (pretix: the variation's override, else the item's, else
 * the product's own price); `listed` is the product's own listed price, returned when no override applies.
 */
export function subeventListedPrice(
  prices: ReadonlyMap<string, string>,
  subeventId: number | null,
  itemId: number,
  variationId: number | null,
  listed: Decimal,
): Decimal {
  if (subeventId === null) return listed;
  const override =
    (variationId === null ? undefined : prices.get(`s${subeventId}/v${variationId}`)) ??
    prices.get(`s${subeventId}/i${itemId}`);
  return override === undefined ? listed : new Decimal(override);
}

/**
 * The catalogue as order creation, cart positions and vouchers read it: items, variations, tax rules, vouchers
 * and quotas a request refers to, and the questions and options its answers refer to. One statement per kind of
 * row asked for (at most seven for {@link load}), whatever the number of ids; nothing is locked (vouchers are
 * locked by VoucherRedemptions, quotas by QuotaReservations). Reads run on the caller's `em`.
 */
@Injectable()
export class SalesCatalogue {
  constructor(
    private readonly quotaLookup: QuotaLookup,
    private readonly subeventPrices: SubEventPricesService,
    private readonly queries: SalesCatalogueQueries,
  ) {}

  /** Loads what `query` names for a request in `event`. */
  async load(
    em: EntityManager,
    event: Pick<Event, 'id' | 'organizerId'>,
    query: SalesCatalogueQuery,
  ): Promise<SalesCatalogueRows> {
    const items = await this.items(em, distinct(query.itemIds));
    const variations = await this.variations(em, distinct(query.variationIds));
    const ruleIds = distinct([
      ...(query.itemTaxRules
        ? [...items.values()].filter((i) => i.eventId === event.id).map((i) => i.taxRuleId)
        : []),
      ...(query.taxRuleIds ?? []),
    ]);
    const taxRules = await this.taxRules(em, event.id, ruleIds);
    const vouchers = await this.vouchers(
      em,
      event.id,
      distinct(query.voucherIds),
      distinct((query.voucherCodes ?? []).map((c) => c?.toUpperCase())),
    );
    const quotaIds = distinct(vouchers.map((v) => v.quotaId));
    const refs = await this.quotaLookup.refsOf(em, quotaIds);
    const quotaProducts = new Map(
      [...refs].map(([id, r]) => [id, { itemIds: r.items, variationIds: r.variations }]),
    );
    const quotas = await this.quotasOfEvent(em, event.id, distinct(query.quotaIds));
    const foreign = distinct(
      [...items.values(), ...variations.values()].map((r) => r.eventId).filter((id) => id !== event.id),
    );
    const organizerEvents = await new TenancyQueries().eventIdsOfOrganizer(em, event.organizerId, foreign);
    const subevents = await new SubEventQueries().subeventsByIds(em, query.subeventIds ?? []);
    const ownDates = [...subevents.values()].filter((s) => s.eventId === event.id).map((s) => s.id);
    const dateRules = await this.subeventPrices.overrideRules(em, ownDates);
    return {
      subevents,
      subeventPrices: dateRules.prices,
      subeventAvailability: dateRules.availability,
      items,
      variations,
      taxRules,
      vouchersById: new Map(vouchers.map((v) => [v.id, v])),
      vouchersByCode: new Map(vouchers.map((v) => [v.code.toUpperCase(), v])),
      quotaProducts,
      quotas,
      ofOrganizer: (eventId) => eventId === event.id || organizerEvents.has(eventId),
    };
  }

  /**
   * Questions and options by id; one statement, none for no ids unless `always` (lists keep a fixed number of
   * statements whether or not a page has answers). With `scope` (ids a request sent), rows of another
   * organizer's events are left out, so they answer like unknown ids (one more statement, only when a row of
   * another event was named); rows of the organizer's other events stay (callers say "does not belong").
   */
  async questions(
    em: EntityManager,
    questionIds: readonly number[],
    optionIds: readonly number[],
    always = false,
    scope?: Pick<Event, 'id' | 'organizerId'>,
  ): Promise<{ questions: Map<number, SaleQuestion>; options: Map<number, SaleQuestionOption> }> {
    const out = {
      questions: new Map<number, SaleQuestion>(),
      options: new Map<number, SaleQuestionOption>(),
    };
    if (questionIds.length === 0 && optionIds.length === 0 && !always) return out;
    const rows: {
      kind: 'q' | 'o';
      id: number;
      event_id: number;
      type: string | null;
      identifier: string;
      question_id: number | null;
      answer: I18nString | null;
      position: number | null;
    }[] = await this.queries.questionRows(em, [...new Set(questionIds)], [...new Set(optionIds)]);
    const foreign = distinct(rows.map((r) => r.event_id).filter((id) => scope && id !== scope.id));
    const reachable = scope
      ? await new TenancyQueries().eventIdsOfOrganizer(em, scope.organizerId, foreign)
      : new Set<number>();
    for (const r of rows) {
      if (scope && r.event_id !== scope.id && !reachable.has(r.event_id)) continue;
      if (r.kind === 'q') {
        out.questions.set(r.id, { id: r.id, eventId: r.event_id, type: r.type!, identifier: r.identifier });
      } else {
        out.options.set(r.id, {
          id: r.id,
          questionId: r.question_id!,
          answer: r.answer!,
          identifier: r.identifier,
          position: r.position!,
        });
      }
    }
    return out;
  }

  /** The add-on configurations of the given base items (compat §3.12); one statement, none for no ids. */
  async addonConfigs(em: EntityManager, baseItemIds: readonly number[]): Promise<SaleAddonConfig[]> {
    if (baseItemIds.length === 0) return [];
    return this.queries.addonConfigs(em, [...new Set(baseItemIds)]);
  }

  /**
   * `baseItem/category` keys of the add-on configurations of the given base items that include the add-on's
   * price (compat §3.12 `price_included`); one statement.
   */
  async includedAddons(em: EntityManager, baseItemIds: readonly number[]): Promise<Set<string>> {
    if (baseItemIds.length === 0) return new Set();
    const rows = await this.queries.includedAddonKeys(em, [...new Set(baseItemIds)]);
    return new Set(rows.map((r) => r.key));
  }

  /**
   * `baseItem/category` keys of every add-on configuration of the given base items (compat §3.12: which
   * categories a position may take add-ons from); one statement, none for no items.
   */
  async addonCategories(em: EntityManager, baseItemIds: readonly number[]): Promise<Set<string>> {
    if (baseItemIds.length === 0) return new Set();
    const rows = await this.queries.addonCategoryKeys(em, [...new Set(baseItemIds)]);
    return new Set(rows.map((r) => r.key));
  }

  /** The event's default tax rule (compat §3.19 `default`), or null; one statement. */
  async defaultTaxRule(em: EntityManager, eventId: number): Promise<SaleTaxRule | null> {
    const rows = await this.queries.defaultTaxRules(em, eventId);
    return rows[0] ?? null;
  }

  /** The ids among `ids` that are items of the event (check-in lists' `limit_products`); one statement. */
  async itemIdsOfEvent(em: EntityManager, eventId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.queries.itemsOfEvent(em, eventId, [...new Set(ids)]);
    return new Set(rows.map((r) => r.id));
  }

  /** Which of `ids` are variations of items of the event (automatic check-in rules); one statement, none for no ids. */
  async variationIdsOfEvent(
    em: EntityManager,
    eventId: number,
    ids: readonly number[],
  ): Promise<Set<number>> {
    const rows = await this.variations(em, distinct(ids));
    return new Set([...rows.values()].filter((v) => v.eventId === eventId).map((v) => v.id));
  }

  /**
   * Item and variation names of the event with their admission flag (check-in list `status/`); one statement.
   * Variations come in `variations` of their item, by position.
   */
  async statusCatalogue(
    em: EntityManager,
    eventId: number,
  ): Promise<
    { id: number; name: I18nString; admission: boolean; variations: { id: number; value: I18nString }[] }[]
  > {
    return this.queries.statusCatalogue(em, eventId);
  }

  /** Names of items by id (messages such as "not assigned to a quota"); one statement. */
  async itemNames(em: EntityManager, itemIds: readonly number[]): Promise<Map<number, I18nString>> {
    const items = await this.items(em, distinct(itemIds));
    return new Map([...items.values()].map((i) => [i.id, i.name]));
  }

  /**
   * Names for printed documents (invoice lines, compat §3.24): items, variations (their `value`) and tax rules by
   * id; one statement, none when nothing is asked.
   */
  async documentLabels(
    em: EntityManager,
    ids: { items: readonly number[]; variations: readonly number[]; taxRules: readonly number[] },
  ): Promise<{
    items: Map<number, I18nString>;
    variations: Map<number, I18nString>;
    taxRules: Map<number, I18nString>;
  }> {
    const out = {
      items: new Map<number, I18nString>(),
      variations: new Map<number, I18nString>(),
      taxRules: new Map<number, I18nString>(),
    };
    if (ids.items.length + ids.variations.length + ids.taxRules.length === 0) return out;
    const rows = await this.queries.documentLabelRows(
      em,
      distinct(ids.items),
      distinct(ids.variations),
      distinct(ids.taxRules),
    );
    for (const r of rows) {
      const target = r.kind === 'i' ? out.items : r.kind === 'v' ? out.variations : out.taxRules;
      target.set(r.id, r.name);
    }
    return out;
  }

  private async items(em: EntityManager, ids: number[]): Promise<Map<number, SaleItem>> {
    if (ids.length === 0) return new Map();
    const rows = await this.queries.items(em, ids);
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async variations(em: EntityManager, ids: number[]): Promise<Map<number, SaleVariation>> {
    if (ids.length === 0) return new Map();
    const rows = await this.queries.variations(em, ids);
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async taxRules(
    em: EntityManager,
    eventId: number,
    ids: number[],
  ): Promise<Map<number, SaleTaxRule>> {
    if (ids.length === 0) return new Map();
    const rows = await this.queries.taxRules(em, eventId, ids);
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async vouchers(
    em: EntityManager,
    eventId: number,
    ids: number[],
    codes: string[],
  ): Promise<SaleVoucher[]> {
    if (ids.length === 0 && codes.length === 0) return [];
    return this.queries.vouchers(em, eventId, ids, codes);
  }

  private async quotasOfEvent(em: EntityManager, eventId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.queries.quotasOfEvent(em, eventId, ids);
    return new Set(rows.map((r) => r.id));
  }
}

function distinct<T>(values: readonly (T | null | undefined)[] | undefined): T[] {
  return [...new Set((values ?? []).filter((v): v is T => v !== null && v !== undefined))];
}
