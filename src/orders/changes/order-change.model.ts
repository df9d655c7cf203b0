import type { Product } from '../../catalogue/quotas/quota-lookup.service';
import type { SalesCatalogueRows } from '../../catalogue/sales/sales-catalogue.service';
import type { FieldErrors } from '../../common/errors';
import { ValidationFailed } from '../../common/errors';
import type { OrderFee } from '../entities/order-fee.entity';
import type { OrderPosition } from '../entities/order-position.entity';
import type { NewPosition, Values } from '../writing/order-writer';
import type { NewFeeDto, NewPositionDto, PatchFeeDto, PatchPositionDto } from './order-change.dto';

/**
 * What one change asks for, whatever the route (`POST E/orders/{code}/change/`, `POST E/orderpositions/`,
 * `DELETE E/orderpositions/{id}/`): the parts of pretix's change body, the flags, and where field errors of a new
 * position are reported (`create_positions[i]`, or the body's root for `POST E/orderpositions/`).
 */
export interface ChangeRequest {
  patch: PatchPositionDto[];
  cancel: number[];
  split: number[];
  create: NewPositionDto[];
  patchFees: PatchFeeDto[];
  cancelFees: number[];
  createFees: NewFeeDto[];
  recalculate: 'keep_net' | 'keep_gross' | null;
  sendEmail: boolean;
  reissueInvoice: boolean;
  checkQuotas: boolean;
  createErrorsAtRoot: boolean;
}

/** A position of the order as the change leaves it: the row read under the lock and its new state. */
export interface Line {
  before: OrderPosition;
  after: OrderPosition;
  /** Something of the row changes (it is written). */
  dirty: boolean;
  /** It moves to the split-off order. */
  split: boolean;
}

/** A fee of the order as the change leaves it. */
export interface FeeLine {
  before: OrderFee;
  after: OrderFee;
  dirty: boolean;
}

/** A log entry of the change: pretix's action and data; `split` entries belong to the split-off order. */
export interface ChangeLog {
  action: string;
  data: Record<string, unknown>;
  split?: boolean;
}

/** A new position: what is inserted, and what its log entry and the seat and quota checks need. */
export interface AddedPosition {
  draft: NewPosition;
  product: Product;
  seatGuid: string | null;
  seatId: number | null;
}

/**
 * The change worked out in memory, under the order lock, before anything is reserved or written: the lines,
 * the new positions and fees, the products taken and given up (quota), the seats asked for, and the log entries.
 */
export interface ChangePlan {
  lines: Map<number, Line>;
  fees: Map<number, FeeLine>;
  added: AddedPosition[];
  addedFees: Omit<Values<OrderFee>, 'orderId'>[];
  taken: Product[];
  released: Product[];
  /** Seats to hold, by the position id (0 for new positions, with the index in `added`). */
  seatRequests: {
    lineId: number | null;
    addedIndex: number | null;
    subeventId: number | null;
    guid: string;
  }[];
  logs: ChangeLog[];
  /** pretix `_invoice_dirty`: the change touches what an invoice shows. */
  invoiceDirty: boolean;
  /** Secrets sent (patch or new positions) that must be unique in the event. */
  secrets: string[];
  catalogue: SalesCatalogueRows;
}

/** Raises pretix's `OrderError` answer: 400 with a bare list of one message. */
export function orderError(message: string): ValidationFailed {
  return ValidationFailed.bare(message);
}

/**
 * Field errors aligned with a list part of the body (`{"patch_positions": [{}, {"position": [...]}]}`); none when
 * no entry has errors.
 */
export function partErrors(part: string, errs: readonly FieldErrors[]): FieldErrors | null {
  return errs.some((e) => Object.keys(e).length > 0) ? { [part]: errs as FieldErrors[] } : null;
}

/** The union of field errors of several parts (none given: `{}`). */
export function mergeErrors(...parts: (FieldErrors | null)[]): FieldErrors {
  const out: FieldErrors = {};
  for (const p of parts) if (p) Object.assign(out, p);
  return out;
}
