import { Module } from '@nestjs/common';
import { OrderActionsModule } from './actions/order-actions.module';
import { CartPositionsModule } from './carts/cart-positions.module';
import { OrderPaymentsApiModule } from './payments/order-payments-api.module';
import { OrdersResourceModule } from './presentation/orders-resource.module';
import { PositionBlockingModule } from './blocking/position-blocking.module';
import { OrderRefundsModule } from './refunds/order-refunds.module';
import { OrderChangesModule } from './changes/order-changes.module';

/**
 * Sales over HTTP, one module per use case: the order resources with creation ({@link OrdersResourceModule}:
 * orders, order positions, the organizer-wide order list, compat §4.4), the order status actions
 * ({@link OrderActionsModule}), the order payments and refunds ({@link OrderPaymentsApiModule},
 * {@link OrderRefundsModule}), API cart positions ({@link CartPositionsModule}, compat §3.2) and ticket blocking
 * with the secret lists scanners download ({@link PositionBlockingModule}) and order changes
 * ({@link OrderChangesModule}).
 */
@Module({
  imports: [
    OrdersResourceModule,
    OrderActionsModule,
    OrderPaymentsApiModule,
    OrderRefundsModule,
    CartPositionsModule,
    PositionBlockingModule,
    OrderChangesModule,
  ],
})
export class OrdersModule {}
