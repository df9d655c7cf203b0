import { Module } from '@nestjs/common';
import { QuotaLookup } from '../quotas/quota-lookup.service';
import { VoucherBlocking } from '../vouchers/voucher-blocking.service';
import { VoucherListExporter } from '../vouchers/voucher-list.exporter';
import { VoucherSeatHolds } from '../vouchers/voucher-seat-holds';
import { CatalogueExportRows } from './catalogue-export-rows';
import { SalesCatalogue } from './sales-catalogue.service';
import { SubEventPricesService } from '../subevent-prices/subevent-prices.service';

/**
 * The catalogue's reads for the sales path, which need no port: what a sales request refers to
 * ({@link SalesCatalogue}), which quotas a product draws on ({@link QuotaLookup}) and what blocking vouchers hold
 * ({@link VoucherBlocking}), which seats vouchers hold ({@link VoucherSeatHolds}), and the rows of the voucher and
 * quota exports ({@link CatalogueExportRows}). The quota engine in `orders/` uses them, so this module must not
 * depend on it.
 */
@Module({
  providers: [
    SalesCatalogue,
    QuotaLookup,
    VoucherBlocking,
    SubEventPricesService,
    VoucherSeatHolds,
    CatalogueExportRows,
    VoucherListExporter,
  ],
  exports: [SalesCatalogue, QuotaLookup, VoucherBlocking, VoucherSeatHolds, CatalogueExportRows],
})
export class CatalogueReadsModule {}
