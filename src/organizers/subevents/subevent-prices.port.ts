import type { EntityManager } from 'typeorm';
import type { FieldErrors } from '../../common/errors';

/**
 * What an override says about a product on a date besides its price (pretix 2026 `SubEventItem`): `disabled`
 * (not sold on that date) and a sales window `available_from`/`available_until` (UTC ISO 8601 datetimes, null:
 * no bound).
 */
export interface OverrideAvailability {
  disabled: boolean;
  available_from: string | null;
  available_until: string | null;
}

/** An item override of a date: `price` a money string, null for the item's default price. */
export interface ItemPriceOverride extends OverrideAvailability {
  item: number;
  price: string | null;
}

/** A variation override of a date: `price` a money string, null for the variation's default price. */
export interface VariationPriceOverride extends OverrideAvailability {
  variation: number;
  price: string | null;
}

/** Both override lists of a date (spec "Sub-event"). */
export interface PriceOverrides {
  item_price_overrides: ItemPriceOverride[];
  variation_price_overrides: VariationPriceOverride[];
}

/**
 * Port: the item and variation price overrides of dates (spec "Sub-event"; compat §3.17). They refer to items,
 * so the catalogue owns them; declared here, provided by the catalogue (`SubEventPricesModule`) and handed to
 * OrganizersModule by `app.module.ts`; mandatory.
 */
export const SUBEVENT_PRICES = Symbol('SubEventPrices');

export interface SubEventPrices {
  /**
   * Checks override lists sent for a date of the event (absent lists are not checked).
   * @returns field errors: an unknown item or variation
   *   (`{"item_price_overrides": [{"item": ["Invalid pk \"5\" - object does not exist."]}]}`), one of another
   *   event (`non_field_errors`: `One or more items do not belong to this event.`), or null when fine
   */
  check(em: EntityManager, eventId: number, overrides: Partial<PriceOverrides>): Promise<FieldErrors | null>;

  /** Replaces the stored set of each list sent (absent lists are kept). */
  replace(em: EntityManager, subeventId: number, overrides: Partial<PriceOverrides>): Promise<void>;

  /** The overrides of the dates, by date id (every id present, empty lists when none); one statement. */
  load(em: EntityManager, subeventIds: readonly number[]): Promise<Map<number, PriceOverrides>>;
}
