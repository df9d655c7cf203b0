import { Module } from '@nestjs/common';
import { UsersModule } from '../auth/users.module';
import { TenancyModule } from '../organizers/tenancy.module';
import {
  EventScheduledExportsController,
  OrganizerScheduledExportsController,
} from './scheduled-exports.controller';
import { ScheduledExportAccess } from './scheduled-export-access.guard';
import { ScheduledExportsService } from './scheduled-exports.service';

/** Scheduled exports over HTTP (spec "Scheduled exports"; compat §3.7); the runs happen in the worker. */
@Module({
  imports: [UsersModule, TenancyModule],
  controllers: [EventScheduledExportsController, OrganizerScheduledExportsController],
  providers: [ScheduledExportsService, ScheduledExportAccess],
})
export class ExportsModule {}
