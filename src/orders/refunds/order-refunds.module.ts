import { DynamicModule, Module } from '@nestjs/common';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderRefundsController } from './order-refunds.controller';
import { OrderRefunds } from './order-refunds.service';

/** The order refund endpoints over HTTP (pretix doc "Order refund endpoints", {@link OrderRefundsController}). */
@Module({})
export class OrderRefundsModule {
  /**
   * The module with `paymentsApi`, the `OrderPaymentsApiModule` instance of `OrdersModule.register` (its payment
   * actions and gift card payments; one instance, so its routes are registered once).
   */
  static register(paymentsApi: DynamicModule): DynamicModule {
    return {
      module: OrderRefundsModule,
      imports: [TenancyModule, paymentsApi],
      controllers: [OrderRefundsController],
      providers: [OrderRefunds],
    };
  }
}
