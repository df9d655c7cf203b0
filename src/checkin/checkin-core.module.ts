import { Module } from '@nestjs/common';
import { OrdersCoreModule } from '../orders/orders-core.module';
import { CheckinExport } from './checkin-export';
import { ExitAll } from './exit-all';
import { CheckinQueries } from './checkin.queries';

/**
 * The check-in context without HTTP: what the worker runs (the automatic check-out, the `checkinlist` export's
 * reads).
 */
@Module({
  imports: [OrdersCoreModule],
  providers: [CheckinQueries, ExitAll, CheckinExport],
  exports: [ExitAll, CheckinExport],
})
export class CheckinCoreModule {}
