import { Module } from '@nestjs/common';
import { CatalogueReadsModule } from '../../catalogue/sales/catalogue-reads.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { SeatSalesModule } from '../../seating/seat-sales.module';
import { OrderExportRows } from './order-export-rows';
import { OrderPositionReads } from './order-position-reads.service';
import { OrderPresentation } from './order-presentation.service';
import { OrderReads } from './order-reads.service';
import { OrderListQueries } from './order-list.queries';
import { OrderBulkReadQueries } from './order-bulk-reads.queries';
import { OrderListExporter } from './order-list.exporter';
import { CheckinSeamQueries } from '../checkin-seam/checkin-seam.queries';
import { PrintLogQueries } from './print-log.queries';
import { OrderRefQueries } from './order-refs.queries';

/**
 * The presentation of orders without HTTP: the bulk presentation of orders and positions
 * ({@link OrderPresentation}, compat §4.4) and the reads other contexts use: orders for the invoices
 * ({@link OrderReads}), order positions for gift cards and reusable media ({@link OrderPositionReads}), and the
 * rows of the order exports ({@link OrderExportRows}) and the `orderlist` exporter ({@link OrderListExporter}). Needs only the catalogue's port-free reads, the tenancy
 * queries and the seating's seat reads.
 */
@Module({
  imports: [CatalogueReadsModule, TenancyModule, SeatSalesModule],
  providers: [
    OrderPresentation,
    OrderReads,
    OrderPositionReads,
    OrderExportRows,
    OrderListQueries,
    OrderBulkReadQueries,
    OrderListExporter,
    CheckinSeamQueries,
    PrintLogQueries,
    OrderRefQueries,
  ],
  exports: [
    OrderPresentation,
    OrderReads,
    OrderPositionReads,
    OrderExportRows,
    PrintLogQueries,
    OrderRefQueries,
  ],
})
export class OrderPresentationModule {}
