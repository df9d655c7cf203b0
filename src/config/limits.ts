/**
 * Caps on the lists a client may send (README "Limits"; style.md "What to avoid"). pretix sets none; these are
 * generous for real use and keep one request's work, locks and statement parameters bounded. A list above its cap
 * answers 400 naming the field (`{"positions": ["Ensure this field has no more than 2500 elements."]}`) before
 * anything is read or written. Fixed in code (not environment settings): clients rely on them, so they are part
 * of the documented contract.
 */
export const LIMITS = {
  /** `positions` of `POST E/orders/` (add-ons count as positions). */
  orderPositions: 2500,
  /** `fees` of `POST E/orders/`. */
  orderFees: 100,
  /** `consume_carts` of `POST E/orders/`. */
  consumeCarts: 100,
  /** `use_gift_cards` of `POST E/orders/` (each card is locked for the order's transaction). */
  useGiftCards: 50,
  /** `answers` of one order or cart position. */
  answersPerPosition: 200,
  /** `options` of one answer (chosen options of a choice question). */
  optionsPerAnswer: 200,
  /** Entries of one `POST E/cartpositions/bulk_create/`. */
  cartPositionsPerBulk: 1000,
  /** Entries of one `POST E/vouchers/batch_create/`. */
  vouchersPerBatch: 5000,
  /**
   * Any other list in a body: ids (quota `items`/`variations`, question `items`, discount products, …), strings
   * (team permission lists, sales channels, …) and inline objects (item `variations`/`addons`/`bundles`, question
   * `options`).
   */
  listEntries: 1000,
  /** `ids` or `seat_guids` of one `E/seats/bulk_block/` or `bulk_unblock/` (spec "Limits"). */
  seatsPerBulk: 10000,
  /** Values of one multi-value query parameter (repeated `?ordering=a&ordering=b`, comma lists `?x__in=1,2`). */
  filterValues: 100,
} as const;

export type Limit = keyof typeof LIMITS;

/** DRF's message for a list above its maximum length (`ListField(max_length=...)`). */
export function tooManyMessage(max: number): string {
  return `Ensure this field has no more than ${max} elements.`;
}
