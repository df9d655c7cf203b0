import { Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service';
import { ChangeSourceQueries } from './change-source.queries';
import { ConditionalListInterceptor } from './conditional-list';
import { LogEntryQueries } from './log-entry.queries';

/** The audit log; every context that writes or reads it imports this module (no global modules but config). */
@Module({
  providers: [AuditLogService, LogEntryQueries, ConditionalListInterceptor, ChangeSourceQueries],
  exports: [AuditLogService, ConditionalListInterceptor, ChangeSourceQueries],
})
export class AuditModule {}
