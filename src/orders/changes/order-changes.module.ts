import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { MailModule } from '../../mail/mail.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { SalesPortsModule } from '../sales-ports.module';
import { SeatHoldsModule } from '../seats/seat-holds.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderChangeQueries } from './order-change.queries';
import { OrderChangePlanner } from './order-change.planner';
import { OrderChangeSeats } from './order-change.seats';
import { OrderChanges } from './order-change.service';
import { OrderChangeWriter } from './order-change.writer';
import { OrderChangesController } from './order-changes.controller';
import { OrderPositionWritesController } from './order-position-writes.controller';

/**
 * Changing orders (compat §4.4 "Changing order contents"): `POST E/orders/{code}/change/`
 * ({@link OrderChangesController}) and its wrappers `POST`/`DELETE E/orderpositions/`
 * ({@link OrderPositionWritesController}), all answered by {@link OrderChanges}. Quota reservations and voucher
 * redemptions come from the catalogue's `CatalogueSalesModule` (wired to {@link SalesPortsModule}), seats from
 * {@link SeatHoldsModule}, the shared writer, hooks and transaction log from {@link OrderWritingModule}.
 */
@Module({
  imports: [
    AuditModule,
    TenancyModule,
    MailModule,
    CatalogueSalesModule.register(SalesPortsModule),
    OrderWritingModule,
    OrderPresentationModule,
    SeatHoldsModule,
  ],
  controllers: [OrderChangesController, OrderPositionWritesController],
  providers: [OrderChanges, OrderChangePlanner, OrderChangeQueries, OrderChangeSeats, OrderChangeWriter],
})
export class OrderChangesModule {}
