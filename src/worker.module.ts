import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuditModule } from './audit/audit.module';
import { IdempotencyPurge } from './common/http/idempotency-purge.periodic';
import { CheckinCoreModule } from './checkin/checkin-core.module';
import { ExitAllModule } from './checkin/exit-all.module';
import { CheckinStreamPublishModule } from './sync/checkin-stream-publish.module';
import { ChangeSequencerModule } from './sync/changes/changes.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { InvoiceWorkerModule } from './invoices/invoice-worker.module';
import { ExportsCoreModule } from './exports/exports-core.module';
import { MailDelivery } from './mail/mail-delivery.processor';
import { MailModule } from './mail/mail.module';
import { OrderExpiryModule } from './orders/actions/order-expiry.module';
import { CartExpiryModule } from './orders/carts/cart-expiry.module';
import { QuotaEngineModule } from './orders/quota-engine/quota-engine.module';
import { OAuthCoreModule } from './oauth/oauth-core.module';
import { WaitingListCoreModule } from './waitinglist/waiting-list.module';
import { SalesPortsModule } from './orders/sales-ports.module';
import { SendmailRulesRunnerModule } from './sendmail-rules/sendmail-rules-runner.module';
import { ShredderTasksModule } from './shredder/shredder-tasks.module';
import { TicketTasksModule } from './tickets/ticket-tasks.module';
import { PeriodicJobs } from './scheduler/periodic-jobs';
import { SchedulerProcessor } from './scheduler/scheduler.processor';
import { SchedulerService } from './scheduler/scheduler.service';
import { DiagnosticSleepTask } from './tasks/diagnostic.task';
import { QueueWorkers } from './tasks/queue-workers.service';
import { TaskHousekeeping } from './tasks/task-housekeeping.service';
import { TaskRunner } from './tasks/task-runner.processor';
import { TasksModule } from './tasks/tasks.module';
import { WebhookWorkerModule } from './webhooks/webhook-worker.module';

/**
 * The worker process (architecture.md "Processes"): the queue processors (mail delivery, webhook delivery, invoice
 * PDFs, task runner, scheduler tick, which expires pending orders through the orders core and starts due scheduled
 * exports; the export runs) run here and only here; no HTTP. The automatic check-out publishes its exits to the
 * lists' live streams through the sync context's publisher (the check-in context's `CHECKIN_EVENTS` port).
 */
@Module({
  imports: [
    ConfigModule.forRoot(),
    DatabaseModule,
    DiscoveryModule,
    AuditModule,
    TasksModule,
    MailModule,
    OrderExpiryModule,
    CartExpiryModule,
    QuotaEngineModule,
    CheckinCoreModule,
    ExitAllModule.register(CheckinStreamPublishModule),
    OAuthCoreModule,
    SendmailRulesRunnerModule,
    WaitingListCoreModule.register(SalesPortsModule),
    ShredderTasksModule,
    TicketTasksModule,
    ExportsCoreModule,
    WebhookWorkerModule,
    InvoiceWorkerModule,
    ChangeSequencerModule,
  ],
  providers: [
    QueueWorkers,
    SchedulerService,
    PeriodicJobs,
    SchedulerProcessor,
    IdempotencyPurge,
    TaskHousekeeping,
    TaskRunner,
    DiagnosticSleepTask,
    MailDelivery,
  ],
})
export class WorkerModule {}
