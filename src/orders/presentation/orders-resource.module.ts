import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderCreateModule } from '../create/order-create.module';
import { OrderPosition } from '../entities/order-position.entity';
import { Order } from '../entities/order.entity';
import { SalesPortsModule } from '../sales-ports.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderPositionsController } from './order-positions.controller';
import { OrderPositionsService } from './order-positions.service';
import { AnswerFilesModule } from '../answers/answer-files.module';
import { OrderPresentationModule } from './order-presentation.module';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';
import { OrganizerOrdersController } from './organizer-orders.controller';
import { OrganizerOrderPositionsController } from './organizer-order-positions.controller';
import { OrderListQueries } from './order-list.queries';

/**
 * The order resources over HTTP (compat §4.4): `E/orders/` (list, detail, PATCH, DELETE of test-mode orders,
 * and POST, which {@link OrderCreateModule}'s `OrderCreator` answers), the organizer-wide order and position
 * lists and the order positions. Voucher redemptions (released on DELETE) come from the catalogue's
 * `CatalogueSalesModule`, wired to {@link SalesPortsModule}. Creation pays with gift cards through the given
 * `GiftCardPaymentsModule`.
 */
@Module({})
export class OrdersResourceModule {
  /** The module with `giftCardPayments`, the `GiftCardPaymentsModule` of `OrdersModule` (for `use_gift_cards`). */
  static register(giftCardPayments: DynamicModule): DynamicModule {
    return {
      module: OrdersResourceModule,
      imports: [
        AuditModule,
        TenancyModule,
        CatalogueSalesModule.register(SalesPortsModule),
        OrderCreateModule.register(giftCardPayments),
        OrderWritingModule,
        OrderPresentationModule,
        AnswerFilesModule,
        TypeOrmModule.forFeature([Order, OrderPosition]),
      ],
      controllers: [
        OrdersController,
        OrganizerOrdersController,
        OrderPositionsController,
        OrganizerOrderPositionsController,
      ],
      providers: [OrdersService, OrderPositionsService, OrderListQueries],
    };
  }
}
