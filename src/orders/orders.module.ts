import { Module } from '@nestjs/common';
import { OrderActionsModule } from './actions/order-actions.module';
import { CartPositionsModule } from './carts/cart-positions.module';
import { OrdersResourceModule } from './presentation/orders-resource.module';
import { PositionBlockingModule } from './blocking/position-blocking.module';

/**
 * Sales over HTTP, one module per use case: the order resources with creation ({@link OrdersResourceModule}:
 * orders, order positions, the organizer-wide order list, compat §4.4), the order status actions
 * ({@link OrderActionsModule}), API cart positions ({@link CartPositionsModule}, compat §3.2) and ticket blocking with the secret lists
 * scanners download ({@link PositionBlockingModule}).
 */
@Module({
  imports: [OrdersResourceModule, OrderActionsModule, CartPositionsModule, PositionBlockingModule],
})
export class OrdersModule {}
