import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueSalesModule } from '../catalogue/sales/catalogue-sales.module';
import { MailModule } from '../mail/mail.module';
import { CartPosition } from './carts/cart-position.entity';
import { CartPositionsController } from './carts/cart-positions.controller';
import { CartPositionsService } from './carts/cart-positions.service';
import { OrderActionsController } from './actions/order-actions.controller';
import { OrderActionsService } from './actions/order-actions.service';
import { OrderCreator } from './create/order-creator.service';
import { OrderPosition } from './entities/order-position.entity';
import { OrderPositionsController } from './presentation/order-positions.controller';
import { OrderPositionsService } from './presentation/order-positions.service';
import { Order } from './entities/order.entity';
import { OrdersController } from './presentation/orders.controller';
import { OrdersCoreModule } from './orders-core.module';
import { OrdersService } from './presentation/orders.service';
import { OrganizerOrdersController } from './presentation/organizer-orders.controller';
import { AuditModule } from '../audit/audit.module';
import { TenancyModule } from '../organizers/tenancy.module';

/**
 * Sales over HTTP: orders (create, read, change, delete, status actions), order positions, the organizer-wide
 * order list (compat §4.4) and API cart positions (compat §3.2). Quota reservations and voucher redemptions come
 * from the catalogue's CatalogueSalesModule, wired to this context's own ports (OrdersCoreModule).
 */
@Module({
  imports: [
    AuditModule,
    TenancyModule,
    OrdersCoreModule,
    MailModule,
    CatalogueSalesModule.register(OrdersCoreModule),
    TypeOrmModule.forFeature([Order, OrderPosition, CartPosition]),
  ],
  controllers: [
    OrdersController,
    OrganizerOrdersController,
    OrderPositionsController,
    OrderActionsController,
    CartPositionsController,
  ],
  providers: [OrderCreator, OrdersService, OrderPositionsService, OrderActionsService, CartPositionsService],
})
export class OrdersModule {}
