import { Decimal } from '../../common/values/money';
import type { OrderPayment } from '../entities/order-payment.entity';

/**
 * Pure payment rules of orders (compat §4.4): the first payment of a new order, the paid credit and the open
 * amount. Unit-tested in `order-payments.rules.spec.ts`.
 */

/** Payment states that still wait for money (canceled when another payment settles the order). */
export const OPEN_PAYMENT_STATES: readonly string[] = ['created', 'pending'];

/** Sum of the confirmed payments of an order (money). Refunds do not exist yet, so this is the paid credit. */
export function paidCredit(payments: readonly Pick<OrderPayment, 'state' | 'amount'>[]): Decimal {
  return payments
    .filter((p) => p.state === 'confirmed')
    .reduce((sum, p) => sum.plus(p.amount), new Decimal(0));
}

/** What is still to be paid: total minus the paid credit, never below zero (money). */
export function openAmount(
  total: string,
  payments: readonly Pick<OrderPayment, 'state' | 'amount'>[],
): Decimal {
  return Decimal.max(new Decimal(total).minus(paidCredit(payments)), 0);
}

/**
 * The payment providers an order may name (`payment_provider`; compat §4.4: "must be a known provider of the
 * event"): pretix's built-in providers that need no integration. Others answer 400 {@link UNKNOWN_PROVIDER}.
 */
export const PAYMENT_PROVIDERS: readonly string[] = [
  'banktransfer',
  'boxoffice',
  'free',
  'manual',
  'offsetting',
];

/** pretix's refusal of a `payment_provider` it does not know. */
export const UNKNOWN_PROVIDER = 'The given payment provider is not known.';

/**
 * The provider of the newest open payment (`created`/`pending`), or null: the deprecated order field
 * `payment_provider` when no payment is confirmed yet (a pending order created with a provider names it).
 */
export function openPaymentProvider(
  payments: readonly Pick<OrderPayment, 'state' | 'provider' | 'localId'>[],
): string | null {
  const open = payments.filter((p) => OPEN_PAYMENT_STATES.includes(p.state));
  return open.sort((a, b) => b.localId - a.localId)[0]?.provider ?? null;
}

/** What order creation asked for about payment. */
export interface PaymentRequest {
  /** `status: "p"` was sent. */
  requestedPaid: boolean;
  /** The order total is zero. */
  free: boolean;
  /** `payment_provider` as sent (null when absent). */
  provider: string | null;
  /** `payment_date` (for a paid order), else null: the payment is dated now. */
  paymentDate: Date | null;
  paymentInfo: Record<string, unknown> | undefined;
}

/** The first payment of a new order, as stored (without order id). */
export interface FirstPayment {
  state: 'confirmed' | 'created';
  provider: string;
  paymentDate: Date | null;
  info: Record<string, unknown>;
}

/**
 * The first payment of a new order (pretix): a paid order gets a confirmed payment (`free` when the total is 0
 * and no provider was named, else the named one or `manual`); a free order asked for as pending gets a `free`
 * one (and is paid); a pending order with a named provider gets a payment in state `created`; otherwise none.
 * A free order is paid at once, whatever status was asked for.
 */
export function firstPayment(req: PaymentRequest, now: Date): FirstPayment | null {
  let provider: string | null = req.provider;
  if (req.requestedPaid) provider = req.provider ?? (req.free ? 'free' : 'manual');
  else if (req.free) provider = 'free';
  if (provider === null) return null;
  const paid = req.requestedPaid || req.free;
  return {
    state: paid ? 'confirmed' : 'created',
    provider,
    paymentDate: !paid ? null : req.requestedPaid && req.paymentDate ? req.paymentDate : now,
    info: req.requestedPaid || !req.free ? (req.paymentInfo ?? {}) : {},
  };
}

/** Refund states whose money counts as refunded (pretix: created, transit, done). */
export const COUNTED_REFUND_STATES: readonly string[] = ['created', 'transit', 'done'];

/** The refusal texts of the payment endpoints (pretix's views). */
export const PAYMENT_MESSAGES = {
  /** confirm/cancel of a payment that is not created or pending. */
  invalidState: 'Invalid state of payment',
  /** refund of a payment that is not confirmed. */
  notRefundable: 'Invalid state of payment.',
  invalidRefundAmount: 'Invalid refund amount.',
} as const;

/** pretix's refusal of a refund above what is left of the payment (`available` as money, e.g. `90.00`). */
export function refundAboveAvailable(available: Decimal): string {
  return `Invalid refund amount, only ${available.toFixed(2)} are available to refund.`;
}

type CountedRefund = { state: string; amount: string; paymentId: number | null };

/** What was refunded (or is being refunded) of the payment with row id `paymentId` (money). */
export function refundedOf(paymentId: number, refunds: readonly CountedRefund[]): Decimal {
  return refunds
    .filter((r) => r.paymentId === paymentId && COUNTED_REFUND_STATES.includes(r.state))
    .reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
}

/**
 * pretix's `pending_sum`: total minus confirmed (and refunded) payments plus counted refunds. The order is paid
 * for when it is zero or less.
 */
export function pendingSum(
  total: string,
  payments: readonly Pick<OrderPayment, 'state' | 'amount'>[],
  refunds: readonly CountedRefund[],
): Decimal {
  const paid = payments
    .filter((p) => p.state === 'confirmed' || p.state === 'refunded')
    .reduce((sum, p) => sum.plus(p.amount), new Decimal(0));
  const refunded = refunds
    .filter((r) => COUNTED_REFUND_STATES.includes(r.state))
    .reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
  return new Decimal(total).minus(paid).plus(refunded);
}
