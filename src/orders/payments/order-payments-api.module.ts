import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderPlacesModule } from '../actions/order-places.module';
import { OrderRefundQueries } from '../refunds/order-refund.queries';
import { SalesPortsModule } from '../sales-ports.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderPaymentActions } from './order-payment-actions.service';
import { OrderPaymentsModule } from './order-payments.module';
import { OrderPaymentQueries } from './order-payment.queries';
import { OrderPaymentsApi } from './order-payments-api.service';
import { OrderPaymentsController } from './order-payments.controller';

/**
 * The order payment endpoints over HTTP (pretix doc "Order payment endpoints", {@link OrderPaymentsController}):
 * `E/orders/{code}/payments/` list, detail and the payment actions. Gift card payments and refunds go through the
 * `GiftCardPaymentsModule` it is given (re-exported for the refunds).
 */
@Module({})
export class OrderPaymentsApiModule {
  /** The module with `giftCardPayments`, the `GiftCardPaymentsModule` built by `OrdersModule.register`. */
  static register(giftCardPayments: DynamicModule): DynamicModule {
    return {
      module: OrderPaymentsApiModule,
      imports: [
        AuditModule,
        TenancyModule,
        CatalogueSalesModule.register(SalesPortsModule),
        OrderWritingModule,
        OrderPaymentsModule,
        OrderPlacesModule,
        giftCardPayments,
      ],
      controllers: [OrderPaymentsController],
      providers: [OrderPaymentsApi, OrderPaymentActions, OrderPaymentQueries, OrderRefundQueries],
      exports: [OrderPaymentActions, OrderPaymentQueries, OrderRefundQueries, giftCardPayments],
    };
  }
}
