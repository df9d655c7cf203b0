import { Module } from '@nestjs/common';
import { CheckinStreamReadsModule } from '../checkin/checkin-stream.reads';
import { CheckinStreamController } from './checkin-stream.controller';
import { CheckinStreamHub } from './checkin-stream.hub';
import { CheckinStreamService } from './checkin-stream.service';
import { AuditLogsModule } from './logs/audit-logs.module';

/**
 * The sync context in the API (architecture.md "Layout"): the live check-in streams (`E/checkinlists/{list}/
 * stream/`), served from this process's {@link CheckinStreamHub}. The publishing side is
 * `CheckinStreamPublishModule`, handed to the check-in context as its `CHECKIN_EVENTS` port.
 */
@Module({
  imports: [CheckinStreamReadsModule, AuditLogsModule],
  controllers: [CheckinStreamController],
  providers: [CheckinStreamHub, CheckinStreamService],
  exports: [CheckinStreamHub],
})
export class SyncModule {}
