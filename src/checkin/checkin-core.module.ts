import { Module } from '@nestjs/common';
import { CatalogueReadsModule } from '../catalogue/sales/catalogue-reads.module';
import { CheckinSeamModule } from '../orders/checkin-seam/checkin-seam.module';
import { CheckinListExporter } from './checkin-list.exporter';
import { CheckinExport } from './checkin-export';
import { ExitAll } from './exit-all';
import { CheckinQueries } from './checkin.queries';

/**
 * The check-in context without HTTP: what the worker runs (the automatic check-out, the `checkinlist` export's
 * reads).
 */
@Module({
  imports: [CheckinSeamModule, CatalogueReadsModule],
  providers: [CheckinQueries, ExitAll, CheckinExport, CheckinListExporter],
  exports: [ExitAll, CheckinExport],
})
export class CheckinCoreModule {}
