import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FieldErrors, invalidPk } from '../../common/errors';
import type { PriceOverrides, SubEventPrices } from '../../organizers/subevents/subevent-prices.port';
import { SubEventPriceQueries } from './subevent-price.queries';

/** pretix's messages for overrides of items of another event (compat §3.17). */
export const OVERRIDE_MESSAGES = {
  foreignItems: 'One or more items do not belong to this event.',
  foreignVariations: 'One or more variations do not belong to this event.',
  duplicateItem: 'Each item can only be listed once.',
  duplicateVariation: 'Each variation can only be listed once.',
};

/**
 * The catalogue's answer to the tenancy roots' SUBEVENT_PRICES port: the item and variation price overrides
 * of dates (tables `subevent_item_price`, `subevent_variation_price`), and the price a product has on a date for
 * the sales side ({@link overridePrices}).
 */
@Injectable()
export class SubEventPricesService implements SubEventPrices {
  constructor(private readonly queries: SubEventPriceQueries) {}

  async check(
    em: EntityManager,
    eventId: number,
    overrides: Partial<PriceOverrides>,
  ): Promise<FieldErrors | null> {
    const errors: FieldErrors = {};
    const nonField: string[] = [];
    const lists = [
      {
        field: 'item_price_overrides',
        key: 'item',
        ids: overrides.item_price_overrides?.map((o) => o.item),
        read: (ids: number[]) => this.queries.itemEvents(em, ids),
        foreign: OVERRIDE_MESSAGES.foreignItems,
        duplicate: OVERRIDE_MESSAGES.duplicateItem,
      },
      {
        field: 'variation_price_overrides',
        key: 'variation',
        ids: overrides.variation_price_overrides?.map((o) => o.variation),
        read: (ids: number[]) => this.queries.variationEvents(em, ids),
        foreign: OVERRIDE_MESSAGES.foreignVariations,
        duplicate: OVERRIDE_MESSAGES.duplicateVariation,
      },
    ];
    for (const list of lists) {
      if (!list.ids || list.ids.length === 0) continue;
      const rows = await list.read(list.ids);
      const eventOf = new Map(rows.map((r) => [r.id, r.event_id]));
      if (list.ids.some((id) => !eventOf.has(id))) {
        errors[list.field] = list.ids.map((id) => (eventOf.has(id) ? {} : { [list.key]: [invalidPk(id)] }));
      } else if (list.ids.some((id) => eventOf.get(id) !== eventId)) {
        nonField.push(list.foreign);
      } else if (new Set(list.ids).size !== list.ids.length) {
        errors[list.field] = [list.duplicate];
      }
    }
    if (nonField.length > 0) errors.non_field_errors = nonField;
    return Object.keys(errors).length > 0 ? errors : null;
  }

  async replace(em: EntityManager, subeventId: number, overrides: Partial<PriceOverrides>): Promise<void> {
    if (overrides.item_price_overrides) {
      const list = overrides.item_price_overrides;
      await this.queries.replaceItemPrices(
        em,
        subeventId,
        list.map((o) => o.item),
        list.map((o) => o.price),
      );
    }
    if (overrides.variation_price_overrides) {
      const list = overrides.variation_price_overrides;
      await this.queries.replaceVariationPrices(
        em,
        subeventId,
        list.map((o) => o.variation),
        list.map((o) => o.price),
      );
    }
  }

  async load(em: EntityManager, subeventIds: readonly number[]): Promise<Map<number, PriceOverrides>> {
    const out = new Map<number, PriceOverrides>(
      subeventIds.map((id) => [id, { item_price_overrides: [], variation_price_overrides: [] }]),
    );
    if (subeventIds.length === 0) return out;
    const rows = await this.queries.overrides(em, subeventIds);
    for (const r of rows) {
      const entry = out.get(r.subevent_id)!;
      if (r.kind === 'i') entry.item_price_overrides.push({ item: r.ref, price: r.price });
      else entry.variation_price_overrides.push({ variation: r.ref, price: r.price });
    }
    return out;
  }

  /**
   * The overridden prices of products on dates, for pricing sales: keys `s<subevent>/i<item>` and
   * `s<subevent>/v<variation>` -> money string (entries with a null price are left out: default price).
   * One statement; none for an empty list.
   */
  async overridePrices(em: EntityManager, subeventIds: readonly number[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const ids = [...new Set(subeventIds)];
    if (ids.length === 0) return out;
    const rows = await this.queries.overridePrices(em, ids);
    for (const r of rows) out.set(r.key, r.price);
    return out;
  }
}
