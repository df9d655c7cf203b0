import { Module } from '@nestjs/common';
import { CatalogueReadsModule } from '../../catalogue/sales/catalogue-reads.module';
import { VOUCHER_SEATS } from '../../catalogue/vouchers/voucher-seats.port';
import { SEAT_HOLDERS } from '../../seating/seat-holders.port';
import { SeatSalesModule } from '../../seating/seat-sales.module';
import { OrderPresentationModule } from '../presentation/order-presentation.module';
import { SeatHolds } from './seat-holds';
import { SeatHoldQueries } from './seat-hold.queries';

/**
 * Who holds a seat ({@link SeatHolds}): the answer to the seating context's `SEAT_HOLDERS` port and the
 * catalogue's `VOUCHER_SEATS` port, and the seat checks of carts and order creation. Re-exports the seating's
 * {@link SeatSalesModule}. `app.module.ts` hands this module to `SeatingModule.register`.
 */
@Module({
  imports: [CatalogueReadsModule, SeatSalesModule, OrderPresentationModule],
  providers: [
    SeatHolds,
    SeatHoldQueries,
    { provide: SEAT_HOLDERS, useExisting: SeatHolds },
    { provide: VOUCHER_SEATS, useExisting: SeatHolds },
  ],
  exports: [SeatHolds, SEAT_HOLDERS, VOUCHER_SEATS, SeatSalesModule],
})
export class SeatHoldsModule {}
