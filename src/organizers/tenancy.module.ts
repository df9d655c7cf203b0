import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Event } from './event.entity';
import { EventHooks } from './event-hooks';
import { EventSelectionQueries } from './event-selection.queries';
import { Organizer } from './organizer.entity';
import { SalesChannelDirectory } from './sales-channels/sales-channel-directory.queries';
import { SalesChannel } from './sales-channels/sales-channel.entity';
import { SubEventQueries } from './subevents/subevent.queries';
import { TenancyQueries } from './tenancy.queries';
import { AuditModule } from '../audit/audit.module';

/**
 * The port-free part of the tenancy roots that other contexts embed or register with: the SQL of organizers and
 * events for other contexts (`TenancyQueries`) and of dates (`SubEventQueries`) and the event write hooks (`EventHooks`), the organizer's sales channels (`SalesChannelDirectory`), a device's event selection (`EventSelectionQueries`). Separate from
 * `OrganizersModule.register(ports)` so that the sales core, which provides that module's ports, can import it
 * without a cycle.
 */
@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([Organizer, Event, SalesChannel])],
  providers: [TenancyQueries, SubEventQueries, EventHooks, SalesChannelDirectory, EventSelectionQueries],
  exports: [TenancyQueries, SubEventQueries, EventHooks, SalesChannelDirectory, EventSelectionQueries],
})
export class TenancyModule {}
