import { Global, Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service';

/** The audit log, available to every context. */
@Global()
@Module({ providers: [AuditLogService], exports: [AuditLogService] })
export class AuditModule {}
