import { Module } from '@nestjs/common';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderPaymentsApiModule } from '../payments/order-payments-api.module';
import { OrderRefundsController } from './order-refunds.controller';
import { OrderRefunds } from './order-refunds.service';

/** The order refund endpoints over HTTP (pretix doc "Order refund endpoints", {@link OrderRefundsController}). */
@Module({
  imports: [TenancyModule, OrderPaymentsApiModule],
  controllers: [OrderRefundsController],
  providers: [OrderRefunds],
})
export class OrderRefundsModule {}
