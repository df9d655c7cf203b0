import { randomString } from '../../common/values/random';
import { QueryFailedError } from 'typeorm';

/**
 * Pure voucher rules (compat §3.23), kept apart from the service so that unit tests need no database.
 */

/** Characters of generated codes: no 0/O, 1/I, which people confuse (pretix's alphabet). */
export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Length of generated codes. */
export const GENERATED_CODE_LENGTH = 16;

/** A random voucher code: 16 characters of {@link CODE_ALPHABET}, from a cryptographic source. */
export function generateVoucherCode(): string {
  return randomString(CODE_ALPHABET, GENERATED_CODE_LENGTH);
}

/** What decides whether a voucher holds quota places: the engine's rule (src/orders/quota-engine/quota-engine.service.ts). */
export interface BlockingState {
  blockQuota: boolean;
  validUntil: Date | null;
  maxUsages: number;
  redeemed: number;
}

/** The product or quota a voucher is bound to (a change of any of them moves its reservation). */
export interface VoucherTarget {
  itemId: number | null;
  variationId: number | null;
  quotaId: number | null;
  subeventId: number | null;
}

/**
 * Places the voucher holds in its quotas right now: `max_usages - redeemed` for a valid (`valid_until` not
 * passed) `block_quota` voucher, else 0 (expired and used-up vouchers hold nothing).
 */
export function placesHeld(state: BlockingState, now: Date): number {
  if (!state.blockQuota) return 0;
  if (state.validUntil !== null && state.validUntil < now) return 0;
  return Math.max(state.maxUsages - state.redeemed, 0);
}

/**
 * Whether a write must check free quota (compat §3.23): only when the voucher will hold places afterwards and
 * either did not before (creation, switching to blocking, reactivation of an expired or used-up voucher), holds
 * them elsewhere now (item, variation, quota or sub-event changed), or holds more of them (`max_usages` raised).
 * Lowering `max_usages` or editing other fields of a blocking voucher needs no check, so it stays editable even
 * when the quota is full.
 * @param before the stored voucher, or null on creation
 */
export function needsQuotaCheck(
  before: (BlockingState & VoucherTarget) | null,
  after: BlockingState & VoucherTarget,
  now: Date,
): boolean {
  const wanted = placesHeld(after, now);
  if (wanted === 0) return false;
  if (before === null) return true;
  const held = placesHeld(before, now);
  if (held === 0) return true;
  const moved =
    before.itemId !== after.itemId ||
    before.variationId !== after.variationId ||
    before.quotaId !== after.quotaId ||
    before.subeventId !== after.subeventId;
  return moved || wanted > held;
}

/** Wire field of each voucher column with a foreign key. */
const FK_FIELDS: Record<string, string> = { item_id: 'item', variation_id: 'variation', quota_id: 'quota' };

/**
 * The wire field and id of a foreign-key violation on a voucher reference (PostgreSQL 23503, detail
 * `Key (item_id)=(5) is not present in table "item".`): a referenced object deleted between the check and the
 * write. Null for any other error.
 */
export function foreignKeyViolation(err: unknown): { field: string; id: string } | null {
  if (!(err instanceof QueryFailedError)) return null;
  const driver = err.driverError as { code?: string; detail?: string };
  if (driver.code !== '23503') return null;
  const m = /^Key \((\w+)\)=\(([^)]*)\)/.exec(driver.detail ?? '');
  const field = m ? FK_FIELDS[m[1]] : undefined;
  return m && field ? { field, id: m[2] } : null;
}
