import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { UsersModule } from '../auth/users.module';
import { TenancyModule } from '../organizers/tenancy.module';
import { TasksModule } from '../tasks/tasks.module';
import { EventExportersController, OrganizerExportersController } from './exporters.controller';
import { ExporterRunsService } from './exporter-runs.service';
import {
  EventScheduledExportsController,
  OrganizerScheduledExportsController,
} from './scheduled-exports.controller';
import { ExporterRegistry } from './exporter-registry';
import { ScheduledExportQueries } from './scheduled-export.queries';
import { ScheduledExportAccess } from './scheduled-export-access.guard';
import { ScheduledExportsService } from './scheduled-exports.service';

/**
 * Scheduled exports and the exporters (`…/exporters/`, list, run, download) over HTTP (spec "Scheduled exports";
 * compat §3.7); the runs happen in the worker. The forms
 * are checked against the exporters' declarations ({@link ExporterRegistry}, discovered among the providers of the
 * contexts that own them).
 */
@Module({
  imports: [DiscoveryModule, UsersModule, TenancyModule, TasksModule],
  controllers: [
    EventScheduledExportsController,
    OrganizerScheduledExportsController,
    EventExportersController,
    OrganizerExportersController,
  ],
  providers: [
    ScheduledExportsService,
    ScheduledExportAccess,
    ExporterRegistry,
    ScheduledExportQueries,
    ExporterRunsService,
  ],
})
export class ExportsModule {}
