import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { TasksModule } from '../tasks/tasks.module';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDispatch } from './webhook-dispatch.service';
import { WebhookDeliveryQueries } from './webhook-delivery.queries';
import { WebhookQueries } from './webhook.queries';

/**
 * Webhooks (worker side): the listener and sweep that enqueue due deliveries, and the sender of the `webhooks`
 * queue. Imported by the worker module only; the scheduler's tick uses {@link WebhookDispatch} too.
 */
@Module({
  imports: [AuditModule, TasksModule],
  providers: [WebhookDispatch, WebhookDeliveryProcessor, WebhookQueries, WebhookDeliveryQueries],
  exports: [WebhookDispatch],
})
export class WebhookWorkerModule {}
