import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Event } from './event.entity';
import { EventHooks } from './event-hooks';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { Organizer } from './organizer.entity';
import { OrganizersController } from './organizers.controller';
import { OrganizersService } from './organizers.service';
import { TenancyQueries } from './tenancy-queries';

/** The tenancy roots: organizers and events. */
@Module({
  imports: [TypeOrmModule.forFeature([Organizer, Event])],
  controllers: [OrganizersController, EventsController],
  providers: [OrganizersService, EventsService, TenancyQueries, EventHooks],
  exports: [OrganizersService, EventsService, TenancyQueries, EventHooks],
})
export class OrganizersModule {}
