import { Module } from '@nestjs/common';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderPaymentQueries } from './order-payment.queries';
import { OrderPaymentsApi } from './order-payments-api.service';
import { OrderPaymentsController } from './order-payments.controller';

/**
 * The order payment endpoints over HTTP (pretix doc "Order payment endpoints", {@link OrderPaymentsController}):
 * `E/orders/{code}/payments/` list, detail and the payment actions.
 */
@Module({
  imports: [TenancyModule],
  controllers: [OrderPaymentsController],
  providers: [OrderPaymentsApi, OrderPaymentQueries],
})
export class OrderPaymentsApiModule {}
