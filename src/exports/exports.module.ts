import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { UsersModule } from '../auth/users.module';
import { TenancyModule } from '../organizers/tenancy.module';
import {
  EventScheduledExportsController,
  OrganizerScheduledExportsController,
} from './scheduled-exports.controller';
import { ExporterRegistry } from './exporter-registry';
import { ScheduledExportQueries } from './scheduled-export.queries';
import { ScheduledExportAccess } from './scheduled-export-access.guard';
import { ScheduledExportsService } from './scheduled-exports.service';

/**
 * Scheduled exports over HTTP (spec "Scheduled exports"; compat §3.7); the runs happen in the worker. The forms
 * are checked against the exporters' declarations ({@link ExporterRegistry}, discovered among the providers of the
 * contexts that own them).
 */
@Module({
  imports: [DiscoveryModule, UsersModule, TenancyModule],
  controllers: [EventScheduledExportsController, OrganizerScheduledExportsController],
  providers: [ScheduledExportsService, ScheduledExportAccess, ExporterRegistry, ScheduledExportQueries],
})
export class ExportsModule {}
