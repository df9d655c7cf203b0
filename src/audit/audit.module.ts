import { Global, Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service';
import { ConditionalListInterceptor } from './conditional-list';

/** The audit log, available to every context. */
@Global()
@Module({
  providers: [AuditLogService, ConditionalListInterceptor],
  exports: [AuditLogService, ConditionalListInterceptor],
})
export class AuditModule {}
