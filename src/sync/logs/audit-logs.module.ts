import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { OrderPresentationModule } from '../../orders/presentation/order-presentation.module';
import { AuditLogQueries } from './audit-log.queries';
import { AuditLogsController } from './audit-logs.controller';
import { AuditLogsService } from './audit-logs.service';

/** The audit log API (`O/logs/`, `E/logs/`, `E/orders/{code}/logs/`; README "Audit log"). */
@Module({
  imports: [AuditModule, OrderPresentationModule],
  controllers: [AuditLogsController],
  providers: [AuditLogsService, AuditLogQueries],
})
export class AuditLogsModule {}
