import { DynamicModule, Module, Type } from '@nestjs/common';
import { CheckinQueries } from './checkin.queries';
import { ExitAll } from './exit-all';

/**
 * The automatic check-out ({@link ExitAll}), run by the worker's scheduler tick. `events` provides the
 * `CHECKIN_EVENTS` port (the live stream; `worker.module.ts` hands it the sync context's publisher).
 */
@Module({})
export class ExitAllModule {
  static register(events: Type): DynamicModule {
    return {
      module: ExitAllModule,
      imports: [events],
      providers: [CheckinQueries, ExitAll],
      exports: [ExitAll],
    };
  }
}
