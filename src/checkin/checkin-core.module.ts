import { Module } from '@nestjs/common';
import { CatalogueReadsModule } from '../catalogue/sales/catalogue-reads.module';
import { CheckinSeamModule } from '../orders/checkin-seam/checkin-seam.module';
import { CheckinListExporter } from './checkin-list.exporter';
import { CheckinExport } from './checkin-export';
import { CheckinQueries } from './checkin.queries';

/**
 * The check-in context without HTTP: the `checkinlist` export's reads (the automatic check-out is
 * `ExitAllModule`).
 */
@Module({
  imports: [CheckinSeamModule, CatalogueReadsModule],
  providers: [CheckinQueries, CheckinExport, CheckinListExporter],
  exports: [CheckinExport],
})
export class CheckinCoreModule {}
