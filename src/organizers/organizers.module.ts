import { DynamicModule, Module, Type } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { EventMetaPropertiesController } from './meta-properties/event-meta-properties.controller';
import { EventMetaPropertiesService } from './meta-properties/event-meta-properties.service';
import { OrganizerSubEventsController, SubEventsController } from './subevents/subevents.controller';
import { SubEventQueries } from './subevents/subevent-queries';
import { SubEventsService } from './subevents/subevents.service';
import { OrganizersController } from './organizers.controller';
import { OrganizersService } from './organizers.service';
import { TenancyModule } from './tenancy.module';
import { AuditModule } from '../audit/audit.module';

/** The tenancy roots: organizers, events and their dates (sub-events), event meta-data properties. */
@Module({
  imports: [AuditModule],
})
export class OrganizersModule {
  /**
   * @param ports the modules that provide the EVENT_USAGE port (`event-usage.port.ts`; the sales side's
   *   OrdersCoreModule: an event with orders must never be deleted) and the EVENT_SEATING port
   *   (`event-seating.port.ts`; the SeatingModule) and the SUBEVENT_PRICES port
   *   (`subevents/subevent-prices.port.ts`; the catalogue's SubEventPricesModule): all mandatory
   */
  static register(...ports: (Type<unknown> | DynamicModule)[]): DynamicModule {
    return {
      module: OrganizersModule,
      imports: [...ports, TenancyModule],
      controllers: [
        OrganizersController,
        EventsController,
        EventMetaPropertiesController,
        SubEventsController,
        OrganizerSubEventsController,
      ],
      providers: [
        OrganizersService,
        EventsService,
        EventMetaPropertiesService,
        SubEventQueries,
        SubEventsService,
      ],
      exports: [OrganizersService, EventsService, TenancyModule],
    };
  }
}
