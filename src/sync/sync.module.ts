import { Module } from '@nestjs/common';
import { CheckinStreamReadsModule } from '../checkin/checkin-stream.reads';
import { CheckinStreamController } from './checkin-stream.controller';
import { CheckinStreamHub } from './checkin-stream.hub';
import { CheckinStreamService } from './checkin-stream.service';
import { AuditLogsModule } from './logs/audit-logs.module';
import { SseModule } from './sse/sse.module';
import { StatsModule } from './stats/stats.module';

/**
 * The sync context in the API (architecture.md "Layout"): the live check-in streams (`E/checkinlists/{list}/
 * stream/`), served from this process's {@link CheckinStreamHub}. The publishing side is
 * `CheckinStreamPublishModule`, handed to the check-in context as its `CHECKIN_EVENTS` port. Also the live
 * figures (`E/stats/` and its stream, {@link StatsModule}); both streams share the process's `SseHub`.
 */
@Module({
  imports: [CheckinStreamReadsModule, AuditLogsModule, SseModule, StatsModule],
  controllers: [CheckinStreamController],
  providers: [CheckinStreamHub, CheckinStreamService],
  exports: [CheckinStreamHub],
})
export class SyncModule {}
