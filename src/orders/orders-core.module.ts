import { Module } from '@nestjs/common';
import { OrderExpiryModule } from './actions/order-expiry.module';
import { CheckinSeamModule } from './checkin-seam/checkin-seam.module';
import { OrderPaymentsModule } from './payments/order-payments.module';
import { OrderPresentationModule } from './presentation/order-presentation.module';
import { SalesPortsModule } from './sales-ports.module';
import { OrderWritingModule } from './writing/order-writing.module';

/**
 * The whole orders core without HTTP, for a composition root that wants every part in one import (the ports
 * boot test, test/orders-ports.e2e-spec.ts, hands it to `CatalogueModule`, `OrganizersModule` and
 * `SeatingModule` at once): the answers to the catalogue's, the tenancy roots' and the seating's ports
 * ({@link SalesPortsModule}), the writers and status hooks, the presentation and the reads for the contexts
 * above, payments, the check-in seam and the expiry of pending orders. The application's modules import the
 * specific modules instead.
 */
@Module({
  imports: [
    SalesPortsModule,
    OrderWritingModule,
    OrderPresentationModule,
    OrderPaymentsModule,
    CheckinSeamModule,
    OrderExpiryModule,
  ],
  exports: [
    SalesPortsModule,
    OrderWritingModule,
    OrderPresentationModule,
    OrderPaymentsModule,
    CheckinSeamModule,
    OrderExpiryModule,
  ],
})
export class OrdersCoreModule {}
