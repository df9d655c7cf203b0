import { QueryFailedError } from 'typeorm';
import { InvalidRequest, ValidationFailed } from '../../common/errors';
import { CART_POSITION_SEAT_INDEX } from '../carts/cart-position.entity';
import { ORDER_POSITION_LIVE_SEAT_INDEX } from '../entities/order-position.entity';

/** The answer when the seat indexes refuse a seat another request took meanwhile. */
export const SEAT_TAKEN_MEANWHILE = 'The selected seat is not available.';

/** A revived order (reactivated, or paid after expiry) whose seat was sold meanwhile: 400 `{"detail": ...}`. */
export class SeatTakenError extends InvalidRequest {
  constructor() {
    super('A seat of this order has been sold or reserved meanwhile.');
  }
}

/** Whether `err` is a violation of a seat index (one live order position, one cart position per seat). */
export function isSeatIndexViolation(err: unknown): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const driver = err.driverError as { code?: string; constraint?: string };
  return (
    driver.code === '23505' &&
    (driver.constraint === ORDER_POSITION_LIVE_SEAT_INDEX || driver.constraint === CART_POSITION_SEAT_INDEX)
  );
}

/**
 * Runs a sale and turns a violation of a seat index into 400 `{"seat": ["The selected seat is not available."]}`.
 * The services check seats under the seat rows' locks first, so this is the database's backstop, not the usual
 * answer.
 */
export async function seatTakenAsValidation<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isSeatIndexViolation(err)) throw ValidationFailed.field('seat', SEAT_TAKEN_MEANWHILE);
    throw err;
  }
}
