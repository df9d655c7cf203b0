import { Module } from '@nestjs/common';
import { QuotasModule } from '../catalogue/quotas/quotas.module';
import { OrderCreator } from './order-create.service';
import { OrderPositionsController } from './order-positions.controller';
import { OrderPositionsService } from './order-positions.service';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';
import { OrganizerOrdersController } from './organizer-orders.controller';
import { MailModule } from '../mail/mail.module';

/**
 * Sales: orders (create, read, change, delete), order positions, the organizer-wide order list (compat §4.4).
 * Order creation reserves quota through QuotasModule's reservations.
 */
@Module({
  imports: [QuotasModule, MailModule],
  controllers: [OrdersController, OrganizerOrdersController, OrderPositionsController],
  providers: [OrderCreator, OrdersService, OrderPositionsService],
})
export class OrdersApiModule {}
