import { Module } from '@nestjs/common';
import { CHECKIN_EVENTS } from '../checkin/checkin-events.port';
import { CheckinStreamReadsModule } from '../checkin/checkin-stream.reads';
import { CheckinStreamPublisher } from './checkin-stream.publisher';

/**
 * The answer to the check-in context's `CHECKIN_EVENTS` port ({@link CheckinStreamPublisher}): `app.module.ts`
 * hands it to `CheckinModule.register`, `worker.module.ts` to `ExitAllModule.register`.
 */
@Module({
  imports: [CheckinStreamReadsModule],
  providers: [CheckinStreamPublisher, { provide: CHECKIN_EVENTS, useExisting: CheckinStreamPublisher }],
  exports: [CheckinStreamPublisher, CHECKIN_EVENTS],
})
export class CheckinStreamPublishModule {}
