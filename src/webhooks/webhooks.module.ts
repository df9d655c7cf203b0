import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { TenancyModule } from '../organizers/tenancy.module';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookDeliveryQueries } from './webhook-delivery.queries';
import { WebhookQueries } from './webhook.queries';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Webhooks (API side): the configuration (`O/webhooks/`), the delivery log and redelivery. Deliveries are written
 * by the outbox trigger on the audit log and sent by the worker ({@link WebhookWorkerModule}).
 */
@Module({
  imports: [AuditModule, TenancyModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookDeliveriesService, WebhookQueries, WebhookDeliveryQueries],
})
export class WebhooksModule {}
