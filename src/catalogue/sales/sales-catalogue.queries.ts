import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { preparedQuery } from '../../common/persistence/prepared';
import { Voucher } from '../vouchers/voucher.entity';

/** An item as the sales path reads it (spec "Item"): prices are money strings. */
export interface SaleItem {
  id: number;
  eventId: number;
  active: boolean;
  hasVariations: boolean;
  name: I18nString;
  defaultPrice: string;
  taxRuleId: number | null;
  categoryId: number | null;
  /** Whether its category is an add-on category. */
  isAddon: boolean;
  validityMode: string | null;
  validityFixedFrom: Date | null;
  validityFixedUntil: Date | null;
  validityDynamicDurationMinutes: number | null;
  validityDynamicDurationHours: number | null;
  validityDynamicDurationDays: number | null;
  validityDynamicDurationMonths: number | null;
}

/** A variation as the sales path reads it; `eventId` is its item's event. */
export interface SaleVariation {
  id: number;
  itemId: number;
  eventId: number;
  defaultPrice: string | null;
}

/** The tax-relevant part of a tax rule (spec "Tax rule"): rate in percent. */
export interface SaleTaxRule {
  id: number;
  eventId: number;
  rate: string;
  priceIncludesTax: boolean;
  /** Tax code (`S/standard`, `Z`, …) or null: copied to positions and fees as `tax_code`. */
  code: string | null;
}

/** An add-on configuration of a base item (spec "Item add-on"; compat §3.12), as the sales path reads it. */
export interface SaleAddonConfig {
  baseItemId: number;
  categoryId: number;
  categoryName: I18nString;
  minCount: number;
  maxCount: number;
  multiAllowed: boolean;
  priceIncluded: boolean;
}

/** A question (`kind` 'q') or an option ('o') an answer refers to; the other kind's columns are null. */
export interface SaleQuestionRow {
  kind: 'q' | 'o';
  id: number;
  event_id: number;
  type: string | null;
  identifier: string;
  question_id: number | null;
  answer: I18nString | null;
  position: number | null;
}

/** An item of the check-in status catalogue with its variations' names, by position. */
export interface StatusCatalogueRow {
  id: number;
  name: I18nString;
  admission: boolean;
  variations: { id: number; value: I18nString }[];
}

/** A printed name: of an item (`kind` 'i'), a variation ('v', its `value`) or a tax rule ('t'). */
export interface DocumentLabelRow {
  kind: 'i' | 'v' | 't';
  id: number;
  name: I18nString;
}

/**
 * The SQL of {@link SalesCatalogue} (the catalogue as the sales path reads it): items, variations, tax rules,
 * vouchers, quotas, questions and options, add-on configurations, printed names. Reads only, no locks; one
 * statement per method on the caller's `em`.
 */
@Injectable()
export class SalesCatalogueQueries {
  /** Questions (`questionIds`) and options (`optionIds`) by id, of any event. */
  async questionRows(
    em: EntityManager,
    questionIds: readonly number[],
    optionIds: readonly number[],
  ): Promise<SaleQuestionRow[]> {
    return em.query(
      `SELECT 'q' AS kind, id, event_id, type, identifier, NULL::int AS question_id, NULL::jsonb AS answer,
              NULL::int AS position
         FROM question WHERE id = ANY($1)
       UNION ALL
       SELECT 'o', id, event_id, NULL, identifier, question_id, answer, position
         FROM question_option WHERE id = ANY($2)`,
      [questionIds, optionIds],
    );
  }

  /** The add-on configurations of the base items, with their category names (compat §3.12). */
  async addonConfigs(em: EntityManager, baseItemIds: readonly number[]): Promise<SaleAddonConfig[]> {
    return em.query(
      `SELECT a.base_item_id AS "baseItemId", a.addon_category_id AS "categoryId", c.name AS "categoryName",
              a.min_count AS "minCount", a.max_count AS "maxCount", a.multi_allowed AS "multiAllowed",
              a.price_included AS "priceIncluded"
         FROM item_addon a JOIN item_category c ON c.id = a.addon_category_id
        WHERE a.base_item_id = ANY($1) ORDER BY a.position, a.id`,
      [baseItemIds],
    );
  }

  /** `baseItem/category` keys of the base items' add-on configurations with `price_included` (compat §3.12). */
  async includedAddonKeys(em: EntityManager, baseItemIds: readonly number[]): Promise<{ key: string }[]> {
    return em.query(
      `SELECT base_item_id || '/' || addon_category_id AS key FROM item_addon
        WHERE price_included AND base_item_id = ANY($1)`,
      [baseItemIds],
    );
  }

  /** `base_item_id/addon_category_id` keys of every add-on configuration of the given base items. */
  async addonCategoryKeys(em: EntityManager, baseItemIds: readonly number[]): Promise<{ key: string }[]> {
    return em.query(
      `SELECT base_item_id || '/' || addon_category_id AS key FROM item_addon WHERE base_item_id = ANY($1)`,
      [baseItemIds],
    );
  }

  /** The event's default tax rule (compat §3.19 `default`): zero or one row. */
  async defaultTaxRules(em: EntityManager, eventId: number): Promise<SaleTaxRule[]> {
    return em.query(
      `SELECT id, event_id AS "eventId", rate, price_includes_tax AS "priceIncludesTax", code
         FROM tax_rule WHERE event_id = $1 AND is_default LIMIT 1`,
      [eventId],
    );
  }

  /** The ids among `ids` that are items of the event. */
  async itemsOfEvent(em: EntityManager, eventId: number, ids: readonly number[]): Promise<{ id: number }[]> {
    return em.query('SELECT id FROM item WHERE event_id = $1 AND id = ANY($2)', [eventId, ids]);
  }

  /** The event's items (name, admission) with their variations' names, by position. */
  async statusCatalogue(em: EntityManager, eventId: number): Promise<StatusCatalogueRow[]> {
    return em.query(
      `SELECT i.id, i.name, i.admission,
              coalesce((SELECT jsonb_agg(jsonb_build_object('id', v.id, 'value', v.value) ORDER BY v.position, v.id)
                          FROM item_variation v WHERE v.item_id = i.id), '[]'::jsonb) AS variations
         FROM item i WHERE i.event_id = $1 ORDER BY i.position, i.id`,
      [eventId],
    );
  }

  /** Names of items, variations (their `value`) and tax rules by id. */
  async documentLabelRows(
    em: EntityManager,
    itemIds: readonly number[],
    variationIds: readonly number[],
    taxRuleIds: readonly number[],
  ): Promise<DocumentLabelRow[]> {
    return em.query(
      `SELECT 'i' AS kind, id, name FROM item WHERE id = ANY($1)
       UNION ALL SELECT 'v', id, value FROM item_variation WHERE id = ANY($2)
       UNION ALL SELECT 't', id, name FROM tax_rule WHERE id = ANY($3)`,
      [itemIds, variationIds, taxRuleIds],
    );
  }

  /** Items by id (any event) with their category's add-on flag; one prepared statement. */
  async items(em: EntityManager, ids: readonly number[]): Promise<SaleItem[]> {
    return preparedQuery<SaleItem>(
      em,
      `SELECT i.id, i.event_id AS "eventId", i.active, i.has_variations AS "hasVariations", i.name,
              i.default_price AS "defaultPrice", i.tax_rule_id AS "taxRuleId", i.category_id AS "categoryId",
              COALESCE(c.is_addon, false) AS "isAddon", i.validity_mode AS "validityMode",
              i.validity_fixed_from AS "validityFixedFrom", i.validity_fixed_until AS "validityFixedUntil",
              i.validity_dynamic_duration_minutes AS "validityDynamicDurationMinutes",
              i.validity_dynamic_duration_hours AS "validityDynamicDurationHours",
              i.validity_dynamic_duration_days AS "validityDynamicDurationDays",
              i.validity_dynamic_duration_months AS "validityDynamicDurationMonths"
         FROM item i LEFT JOIN item_category c ON c.id = i.category_id WHERE i.id = ANY($1)`,
      [ids],
    );
  }

  /** Variations by id (any event) with their item's event. */
  async variations(em: EntityManager, ids: readonly number[]): Promise<SaleVariation[]> {
    return em.query(
      `SELECT v.id, v.item_id AS "itemId", i.event_id AS "eventId", v.default_price AS "defaultPrice"
         FROM item_variation v JOIN item i ON i.id = v.item_id WHERE v.id = ANY($1)`,
      [ids],
    );
  }

  /** Tax rules of the event by id. */
  async taxRules(em: EntityManager, eventId: number, ids: readonly number[]): Promise<SaleTaxRule[]> {
    return em.query(
      `SELECT id, event_id AS "eventId", rate, price_includes_tax AS "priceIncludesTax", code
         FROM tax_rule WHERE id = ANY($1) AND event_id = $2`,
      [ids, eventId],
    );
  }

  /** Vouchers of the event with one of the ids or upper-cased codes, in id order (not locked). */
  async vouchers(
    em: EntityManager,
    eventId: number,
    ids: readonly number[],
    codes: readonly string[],
  ): Promise<Voucher[]> {
    return em
      .getRepository(Voucher)
      .createQueryBuilder('v')
      .where('v.event_id = :event', { event: eventId })
      .andWhere('(v.id = ANY(:ids) OR upper(v.code) = ANY(:codes))', { ids, codes })
      .orderBy('v.id', 'ASC')
      .getMany();
  }

  /** The ids among `ids` that are quotas of the event. */
  async quotasOfEvent(em: EntityManager, eventId: number, ids: readonly number[]): Promise<{ id: number }[]> {
    return em.query('SELECT id FROM quota WHERE event_id = $1 AND id = ANY($2)', [eventId, ids]);
  }
}
