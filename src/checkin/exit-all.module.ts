import { DynamicModule, Module, Type } from '@nestjs/common';
import { CheckinCountsCheck } from './checkin-counts-check';
import { CheckinCountsQueries } from './checkin-counts.queries';
import { ExitAllQueries } from './exit-all.queries';
import { ExitAll } from './exit-all';

/**
 * The automatic check-out ({@link ExitAll}), run by the worker's scheduler tick, and the check of the maintained
 * check-in list counts ({@link CheckinCountsCheck}, run beside the quota count check). `events` provides the
 * `CHECKIN_EVENTS` port (the live stream; `worker.module.ts` hands it the sync context's publisher).
 */
@Module({})
export class ExitAllModule {
  static register(events: Type): DynamicModule {
    return {
      module: ExitAllModule,
      imports: [events],
      providers: [ExitAllQueries, ExitAll, CheckinCountsQueries, CheckinCountsCheck],
      exports: [ExitAll, CheckinCountsCheck],
    };
  }
}
