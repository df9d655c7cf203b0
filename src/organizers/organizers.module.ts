import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { OrganizersController } from './organizers.controller';
import { OrganizersService } from './organizers.service';

/** The tenancy roots: organizers and events. */
@Module({
  controllers: [OrganizersController, EventsController],
  providers: [OrganizersService, EventsService],
  exports: [OrganizersService, EventsService],
})
export class OrganizersModule {}
