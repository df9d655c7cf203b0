import { Module } from '@nestjs/common';
import { QuotaLookup } from '../quotas/quota-lookup.service';
import { QuotaQueries } from '../quotas/quota.queries';
import { SubEventPriceQueries } from '../subevent-prices/subevent-price.queries';
import { VoucherBlocking } from '../vouchers/voucher-blocking.service';
import { VoucherQueries } from '../vouchers/voucher.queries';
import { VoucherListExporter } from '../vouchers/voucher-list.exporter';
import { VoucherSeatHolds } from '../vouchers/voucher-seat-holds';
import { CatalogueExportRows } from './catalogue-export-rows';
import { SalesCatalogueQueries } from './sales-catalogue.queries';
import { SalesCatalogue } from './sales-catalogue.service';
import { SubEventPricesService } from '../subevent-prices/subevent-prices.service';

/**
 * The catalogue's reads for the sales path, which need no port: what a sales request refers to
 * ({@link SalesCatalogue}), which quotas a product draws on ({@link QuotaLookup}) and what blocking vouchers hold
 * ({@link VoucherBlocking}), which seats vouchers hold ({@link VoucherSeatHolds}), and the rows of the voucher and
 * quota exports ({@link CatalogueExportRows}); with the queries classes they use (QuotaQueries and VoucherQueries
 * are exported for the quotas and vouchers modules). The quota engine in `orders/` uses them, so this module must not
 * depend on it.
 */
@Module({
  providers: [
    SalesCatalogue,
    QuotaLookup,
    QuotaQueries,
    VoucherBlocking,
    SubEventPricesService,
    VoucherSeatHolds,
    CatalogueExportRows,
    VoucherQueries,
    SalesCatalogueQueries,
    SubEventPriceQueries,
    VoucherListExporter,
  ],
  exports: [
    SalesCatalogue,
    QuotaLookup,
    VoucherBlocking,
    VoucherSeatHolds,
    CatalogueExportRows,
    QuotaQueries,
    VoucherQueries,
  ],
})
export class CatalogueReadsModule {}
