import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { UsersModule } from '../auth/users.module';
import { CatalogueReadsModule } from '../catalogue/sales/catalogue-reads.module';
import { CheckinCoreModule } from '../checkin/checkin-core.module';
import { GiftCardsCoreModule } from '../giftcards/giftcards-core.module';
import { MailModule } from '../mail/mail.module';
import { OrderPresentationModule } from '../orders/presentation/order-presentation.module';
import { QuotaEngineModule } from '../orders/quota-engine/quota-engine.module';
import { TenancyModule } from '../organizers/tenancy.module';
import { DevicesCoreModule } from '../devices/devices-core.module';
import { TasksModule } from '../tasks/tasks.module';
import { TeamsModule } from '../teams/teams.module';
import { ExportRunTask } from './export-run.task';
import { ExporterRegistry } from './exporter-registry';
import { Exporters } from './exporters.service';
import { ScheduledExportQueries } from './scheduled-export.queries';
import { ScheduledExportRuns } from './scheduled-export-runs.service';

/**
 * The exports context in the worker (compat §3.7; architecture.md "Async tasks"): the exporters (discovered among
 * the providers of the modules imported here, {@link ExporterRegistry}), the `exports.run` task executor, and the
 * scheduler's part of scheduled exports. The team grants of owners come from the teams context's
 * `CREDENTIAL_RESOLVER`, those of devices that started a run from the devices context's `DEVICE_RESOLVER`.
 */
@Module({
  imports: [
    DiscoveryModule,
    TasksModule,
    MailModule,
    UsersModule,
    TeamsModule,
    DevicesCoreModule,
    TenancyModule,
    OrderPresentationModule,
    QuotaEngineModule,
    CheckinCoreModule,
    GiftCardsCoreModule,
    CatalogueReadsModule,
  ],
  providers: [ExporterRegistry, Exporters, ExportRunTask, ScheduledExportRuns, ScheduledExportQueries],
  exports: [ScheduledExportRuns],
})
export class ExportsCoreModule {}
