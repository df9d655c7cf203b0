import { Module } from '@nestjs/common';
import { QUOTA_AVAILABILITY } from '../../catalogue/quotas/quota-availability';
import { CatalogueReadsModule } from '../../catalogue/sales/catalogue-reads.module';
import { QuotaCountCheck } from './quota-count-check';
import { QuotaCountRepair } from './quota-count-repair.periodic';
import { QuotaEngine } from './quota-engine.service';
import { QuotaEngineQueries } from './quota-engine.queries';
import { OrderTotalsQueries } from './order-totals.queries';
import { QuotaListExporter } from './quota-list.exporter';

/**
 * The quota engine of the orders context (architecture.md "Concurrency"; README "Selling without overselling"):
 * the availability of quotas from the maintained `product_sales` counts ({@link QuotaEngine}, which answers the
 * catalogue's `QUOTA_AVAILABILITY` port) and the check that recomputes those counts from the rows
 * ({@link QuotaCountCheck}, its SQL in {@link QuotaEngineQueries}). Needs only the catalogue's port-free reads (voucher blocking); `SalesPortsModule`
 * imports and re-exports it, so the port reaches `CatalogueModule.register(SalesPortsModule)`; the worker and
 * the CLI import it for the count check.
 */
@Module({
  imports: [CatalogueReadsModule],
  providers: [
    QuotaEngine,
    QuotaCountCheck,
    QuotaEngineQueries,
    OrderTotalsQueries,
    QuotaCountRepair,
    QuotaListExporter,
    { provide: QUOTA_AVAILABILITY, useExisting: QuotaEngine },
  ],
  exports: [QuotaEngine, QuotaCountCheck, QUOTA_AVAILABILITY],
})
export class QuotaEngineModule {}
