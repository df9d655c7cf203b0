import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FieldErrors, invalidPk } from '../../common/errors';
import { isoUtc } from '../../common/values/datetime';
import type {
  OverrideAvailability,
  PriceOverrides,
  SubEventPrices,
} from '../../organizers/subevents/subevent-prices.port';
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
    const rest = ({ disabled, available_from, available_until }: OverrideAvailability) => ({
      disabled,
      available_from,
      available_until,
    });
    if (overrides.item_price_overrides) {
      const rows = overrides.item_price_overrides.map((o) => ({ ref: o.item, price: o.price, ...rest(o) }));
      await this.queries.replaceOverrides(em, 'i', subeventId, rows);
    }
    if (overrides.variation_price_overrides) {
      const rows = overrides.variation_price_overrides.map((o) => ({
        ref: o.variation,
        price: o.price,
        ...rest(o),
      }));
      await this.queries.replaceOverrides(em, 'v', subeventId, rows);
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
      const rest = {
        price: r.price,
        disabled: r.disabled,
        available_from: isoUtc(r.available_from),
        available_until: isoUtc(r.available_until),
      };
      if (r.kind === 'i') entry.item_price_overrides.push({ item: r.ref, ...rest });
      else entry.variation_price_overrides.push({ variation: r.ref, ...rest });
    }
    return out;
  }

  /**
   * What the overrides of dates change for sales, keyed `s<subevent>/i<item>` and `s<subevent>/v<variation>`:
   * overridden prices (money strings; entries with a null price are left out: default price) and the
   * availability of products with `disabled` or a window (see `subeventProductAvailable`).
   * One statement; none for an empty list.
   */
  async overrideRules(em: EntityManager, subeventIds: readonly number[]): Promise<SubEventSaleRules> {
    const out: SubEventSaleRules = { prices: new Map(), availability: new Map() };
    const ids = [...new Set(subeventIds)];
    if (ids.length === 0) return out;
    const rows = await this.queries.overrideRules(em, ids);
    for (const r of rows) {
      if (r.price !== null) out.prices.set(r.key, r.price);
      if (r.disabled || r.available_from || r.available_until) {
        out.availability.set(r.key, {
          disabled: r.disabled,
          availableFrom: r.available_from,
          availableUntil: r.available_until,
        });
      }
    }
    return out;
  }
}

/** Whether a product is sold on a date (pretix `SubEventItem.is_available`): not disabled and inside its window. */
export interface SubEventProductWindow {
  disabled: boolean;
  availableFrom: Date | null;
  availableUntil: Date | null;
}

/** The overrides of dates as sales apply them (keys `s<subevent>/i<item>`, `s<subevent>/v<variation>`). */
export interface SubEventSaleRules {
  prices: Map<string, string>;
  availability: Map<string, SubEventProductWindow>;
}
