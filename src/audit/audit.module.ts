import { Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service';
import { ConditionalListInterceptor } from './conditional-list';
import { LogEntryQueries } from './log-entry.queries';

/** The audit log; every context that writes or reads it imports this module (no global modules but config). */
@Module({
  providers: [AuditLogService, LogEntryQueries, ConditionalListInterceptor],
  exports: [AuditLogService, ConditionalListInterceptor],
})
export class AuditModule {}
