import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FieldErrors, invalidPk } from '../../common/errors';
import type { PriceOverrides, SubEventPrices } from '../../organizers/subevents/subevent-prices.port';

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
        sql: 'SELECT id, event_id FROM item WHERE id = ANY($1)',
        foreign: OVERRIDE_MESSAGES.foreignItems,
        duplicate: OVERRIDE_MESSAGES.duplicateItem,
      },
      {
        field: 'variation_price_overrides',
        key: 'variation',
        ids: overrides.variation_price_overrides?.map((o) => o.variation),
        sql: 'SELECT v.id, i.event_id FROM item_variation v JOIN item i ON i.id = v.item_id WHERE v.id = ANY($1)',
        foreign: OVERRIDE_MESSAGES.foreignVariations,
        duplicate: OVERRIDE_MESSAGES.duplicateVariation,
      },
    ];
    for (const list of lists) {
      if (!list.ids || list.ids.length === 0) continue;
      const rows: { id: number; event_id: number }[] = await em.query(list.sql, [list.ids]);
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
      await em.query('DELETE FROM subevent_item_price WHERE subevent_id = $1', [subeventId]);
      if (list.length > 0) {
        await em.query(
          `INSERT INTO subevent_item_price (subevent_id, item_id, price)
           SELECT $1, k.item_id, k.price FROM unnest($2::int[], $3::numeric[]) AS k(item_id, price)`,
          [subeventId, list.map((o) => o.item), list.map((o) => o.price)],
        );
      }
    }
    if (overrides.variation_price_overrides) {
      const list = overrides.variation_price_overrides;
      await em.query('DELETE FROM subevent_variation_price WHERE subevent_id = $1', [subeventId]);
      if (list.length > 0) {
        await em.query(
          `INSERT INTO subevent_variation_price (subevent_id, variation_id, price)
           SELECT $1, k.variation_id, k.price FROM unnest($2::int[], $3::numeric[]) AS k(variation_id, price)`,
          [subeventId, list.map((o) => o.variation), list.map((o) => o.price)],
        );
      }
    }
  }

  async load(em: EntityManager, subeventIds: readonly number[]): Promise<Map<number, PriceOverrides>> {
    const out = new Map<number, PriceOverrides>(
      subeventIds.map((id) => [id, { item_price_overrides: [], variation_price_overrides: [] }]),
    );
    if (subeventIds.length === 0) return out;
    const rows: { kind: 'i' | 'v'; subevent_id: number; ref: number; price: string | null }[] =
      await em.query(
        `SELECT 'i' AS kind, subevent_id, item_id AS ref, price FROM subevent_item_price WHERE subevent_id = ANY($1)
       UNION ALL
       SELECT 'v', subevent_id, variation_id, price FROM subevent_variation_price WHERE subevent_id = ANY($1)
       ORDER BY kind, subevent_id, ref`,
        [[...subeventIds]],
      );
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
    const rows: { key: string; price: string }[] = await em.query(
      `SELECT 's' || subevent_id || '/i' || item_id AS key, price FROM subevent_item_price
        WHERE subevent_id = ANY($1) AND price IS NOT NULL
       UNION ALL
       SELECT 's' || subevent_id || '/v' || variation_id, price FROM subevent_variation_price
        WHERE subevent_id = ANY($1) AND price IS NOT NULL`,
      [ids],
    );
    for (const r of rows) out.set(r.key, r.price);
    return out;
  }
}
