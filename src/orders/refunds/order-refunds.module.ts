import { DynamicModule, Module } from '@nestjs/common';
import { TenancyModule } from '../../organizers/tenancy.module';
import type { GiftCardLedgerPorts } from '../giftcard-payments/gift-card-payments.module';
import { OrderPaymentsApiModule } from '../payments/order-payments-api.module';
import { OrderRefundsController } from './order-refunds.controller';
import { OrderRefunds } from './order-refunds.service';

/** The order refund endpoints over HTTP (pretix doc "Order refund endpoints", {@link OrderRefundsController}). */
@Module({})
export class OrderRefundsModule {
  /** The module with `giftCards`, the module providing `GIFT_CARD_LEDGER` (gift card refunds). */
  static register(giftCards: GiftCardLedgerPorts): DynamicModule {
    return {
      module: OrderRefundsModule,
      imports: [TenancyModule, OrderPaymentsApiModule.register(giftCards)],
      controllers: [OrderRefundsController],
      providers: [OrderRefunds],
    };
  }
}
