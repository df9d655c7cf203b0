import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { MailModule } from '../../mail/mail.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { OrderPaymentsModule } from '../payments/order-payments.module';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { SalesPortsModule } from '../sales-ports.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderActionsController } from './order-actions.controller';
import { OrderActionsService } from './order-actions.service';
import { OrderExpiryModule } from './order-expiry.module';
import { OrderPlacesModule } from './order-places.module';
import { OrderStatusQueries } from './order-status.queries';

/**
 * The order status actions over HTTP (compat §4.4 "Actions": `POST E/orders/{code}/<action>/`, e.g. mark paid, cancel,
 * approve; {@link OrderActionsController}). Quota reservations and voucher redemptions come from
 * the catalogue's `CatalogueSalesModule`, wired to {@link SalesPortsModule}.
 */
@Module({
  imports: [
    AuditModule,
    TenancyModule,
    MailModule,
    CatalogueSalesModule.register(SalesPortsModule),
    OrderWritingModule,
    OrderPaymentsModule,
    OrderPresentationModule,
    OrderExpiryModule,
    OrderPlacesModule,
  ],
  controllers: [OrderActionsController],
  providers: [OrderActionsService, OrderStatusQueries],
})
export class OrderActionsModule {}
