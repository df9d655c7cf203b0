import { Module } from '@nestjs/common';
import { CheckinSeamModule } from '../orders/checkin-seam/checkin-seam.module';
import { CheckinExport } from './checkin-export';
import { ExitAll } from './exit-all';

/**
 * The check-in context without HTTP: what the worker runs (the automatic check-out, the `checkinlist` export's
 * reads).
 */
@Module({
  imports: [CheckinSeamModule],
  providers: [ExitAll, CheckinExport],
  exports: [ExitAll, CheckinExport],
})
export class CheckinCoreModule {}
