import { MembershipGrantHookModule } from './customer-links/membership-grant-hook';
import { DynamicModule, Module } from '@nestjs/common';
import { OrderActionsModule } from './actions/order-actions.module';
import { CartPositionsModule } from './carts/cart-positions.module';
import { OrderPaymentsApiModule } from './payments/order-payments-api.module';
import { OrdersResourceModule } from './presentation/orders-resource.module';
import { PositionBlockingModule } from './blocking/position-blocking.module';
import { PositionEditsModule } from './position-edits/position-edits.module';
import { OrderRefundsModule } from './refunds/order-refunds.module';
import { OrderTransactionsModule } from './transactions/order-transactions.module';
import { GiftCardLedgerPorts, GiftCardPaymentsModule } from './giftcard-payments/gift-card-payments.module';
import { ResendLinkModule } from './resend-link/resend-link.module';
import { OrderChangesModule } from './changes/order-changes.module';
import { AnswerFilesModule } from './answers/answer-files.module';

/**
 * Sales over HTTP, one module per use case: the order resources with creation ({@link OrdersResourceModule}:
 * orders, order positions, the organizer-wide order and position lists, compat §4.4), the order status actions
 * ({@link OrderActionsModule}), the order payments and refunds ({@link OrderPaymentsApiModule},
 * {@link OrderRefundsModule}), single-position edits ({@link PositionEditsModule}), the transaction lists
 * ({@link OrderTransactionsModule}), `resend_link` ({@link ResendLinkModule}), order changes
 * ({@link OrderChangesModule}, also `POST`/`DELETE E/orderpositions/`), API cart positions
 * ({@link CartPositionsModule}, compat §3.2) and ticket blocking with the secret lists scanners download
 * ({@link PositionBlockingModule}). Gift card payments need the `GIFT_CARD_LEDGER` port of the gift card
 * context, whose module `app.module.ts` hands to {@link register}.
 */
@Module({})
export class OrdersModule {
  /** The sales modules with `giftCards`, the module providing `GIFT_CARD_LEDGER`. */
  static register(giftCards: GiftCardLedgerPorts): DynamicModule {
    // Each dynamic module is built once and handed on, so that it is one instance (its routes once).
    const giftCardPayments = GiftCardPaymentsModule.register(giftCards);
    const paymentsApi = OrderPaymentsApiModule.register(giftCardPayments);
    return {
      module: OrdersModule,
      imports: [
        OrdersResourceModule.register(giftCardPayments),
        OrderActionsModule,
        paymentsApi,
        OrderRefundsModule.register(paymentsApi),
        CartPositionsModule,
        PositionBlockingModule,
        OrderTransactionsModule,
        PositionEditsModule,
        ResendLinkModule,
        OrderChangesModule,
        MembershipGrantHookModule,
        AnswerFilesModule,
      ],
    };
  }
}
