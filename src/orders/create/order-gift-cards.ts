import { ValidationFailed } from '../../common/errors';
import { giftCardRequestRefusal } from '../giftcard-payments/gift-card-payment.rules';
import type { CreateOrderDto } from './order.dto';

/**
 * The `use_gift_cards` seam of order creation (pretix `OrderCreateSerializer.create`): checked before anything is
 * read or written; the cards are then taken by `GiftCardPayments.payNewOrder` in the order's transaction.
 * @throws ValidationFailed `{"use_gift_cards": [...]}` with pretix's message: together with `payment_provider` or
 *   `payment_info`, a status other than `n`, a secret twice
 */
export function checkUseGiftCards(body: CreateOrderDto): void {
  const refusal = giftCardRequestRefusal({
    useGiftCards: body.use_gift_cards,
    status: body.status,
    paymentProvider: body.payment_provider,
    paymentInfo: body.payment_info,
  });
  if (refusal !== null) throw ValidationFailed.field('use_gift_cards', refusal);
}
