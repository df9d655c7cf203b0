import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { CatalogueSalesModule } from '../../catalogue/sales/catalogue-sales.module';
import { MailModule } from '../../mail/mail.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { CartWritingModule } from '../carts/cart-writing.module';
import { OrderPaymentsModule } from '../payments/order-payments.module';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { SalesPortsModule } from '../sales-ports.module';
import { SeatHoldsModule } from '../seats/seat-holds.module';
import { OrderWritingModule } from '../writing/order-writing.module';
import { OrderCreator } from './order-creator.service';
import { OrderCreateQueries } from './order-create.queries';
import { CustomersCoreModule } from '../../customers/customers-core.module';
import { TasksModule } from '../../tasks/tasks.module';

/**
 * Order creation (compat §4.4 "Creating orders"; {@link OrderCreator}): quota reservations and voucher
 * redemptions from the catalogue's `CatalogueSalesModule` (wired to {@link SalesPortsModule}), the writers of
 * orders and carts, payments, seats and the presentation of the result. No controller of its own: `POST
 * E/orders/` is a route of `OrdersController` (presentation/), which owns the `E/orders/` resource. `use_gift_cards`
 * pays through the `GiftCardPaymentsModule` (with the gift card context's `GIFT_CARD_LEDGER` port) it is given.
 */
@Module({})
export class OrderCreateModule {
  /** The module with `giftCardPayments`, the `GiftCardPaymentsModule` built by `OrdersModule.register`. */
  static register(giftCardPayments: DynamicModule): DynamicModule {
    return {
      module: OrderCreateModule,
      imports: [
        AuditModule,
        TenancyModule,
        MailModule,
        CatalogueSalesModule.register(SalesPortsModule),
        OrderWritingModule,
        OrderPaymentsModule,
        OrderPresentationModule,
        CartWritingModule,
        SeatHoldsModule,
        giftCardPayments,
        CustomersCoreModule,
        TasksModule,
      ],
      providers: [OrderCreator, OrderCreateQueries],
      exports: [OrderCreator],
    };
  }
}
