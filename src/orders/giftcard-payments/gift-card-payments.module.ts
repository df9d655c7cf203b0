import { DynamicModule, Module, Type } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { GiftCardPaymentQueries } from './gift-card-payment.queries';
import { GiftCardPayments } from './gift-card-payments.service';

/** The module that provides the `GIFT_CARD_LEDGER` port (the gift card context's; handed in by `app.module.ts`). */
export type GiftCardLedgerPorts = Type<unknown> | DynamicModule;

/**
 * Gift card payments and refunds of orders ({@link GiftCardPayments}): used by the payment and refund endpoints
 * and by order creation (`use_gift_cards`). The ledger comes from the `GIFT_CARD_LEDGER` port, whose module the
 * composition root hands to {@link register} through `OrdersModule.register`.
 */
@Module({})
export class GiftCardPaymentsModule {
  /** The module with `ledger`, the module providing `GIFT_CARD_LEDGER`. */
  static register(ledger: GiftCardLedgerPorts): DynamicModule {
    return {
      module: GiftCardPaymentsModule,
      imports: [ledger, AuditModule, OrderWritingModule],
      providers: [GiftCardPayments, GiftCardPaymentQueries],
      exports: [GiftCardPayments],
    };
  }
}
