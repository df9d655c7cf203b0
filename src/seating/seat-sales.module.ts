import { Module } from '@nestjs/common';
import { SeatSales } from './seat-sales.service';
import { SeatQueries } from './seat.queries';

/**
 * The seating context's port-free part the sales side imports (orders' core): {@link SeatSales}. Separate from
 * SeatingModule, which needs the SEAT_HOLDERS port the orders provide, so that no module cycle arises.
 */
@Module({ providers: [SeatQueries, SeatSales], exports: [SeatQueries, SeatSales] })
export class SeatSalesModule {}
