import { DynamicModule, Module, Type } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventQueries } from './event.queries';
import { EventsService } from './events.service';
import { EventMetaPropertiesController } from './meta-properties/event-meta-properties.controller';
import { EventMetaPropertiesService } from './meta-properties/event-meta-properties.service';
import { EventMetaPropertyQueries } from './meta-properties/event-meta-property.queries';
import { OrganizerSubEventsController, SubEventsController } from './subevents/subevents.controller';
import { SubEventReads } from './subevents/subevent-reads.service';
import { SubEventsService } from './subevents/subevents.service';
import { OrganizersController } from './organizers.controller';
import { OrganizerQueries } from './organizer.queries';
import { OrganizersService } from './organizers.service';
import { TenancyModule } from './tenancy.module';
import { SalesChannelsController } from './sales-channels/sales-channels.controller';
import { SalesChannelsService } from './sales-channels/sales-channels.service';
import { SalesChannelQueries } from './sales-channels/sales-channel.queries';
import { OrganizerSettingsController } from './settings/organizer-settings.controller';
import { OrganizerSettingsQueries } from './settings/organizer-settings.queries';
import { OrganizerSettingsService } from './settings/organizer-settings.service';
import { AuditModule } from '../audit/audit.module';

/**
 * The tenancy roots: organizers (+ settings, sales channels), events and their dates (sub-events), event
 * meta-data properties.
 */
@Module({
  imports: [AuditModule],
})
export class OrganizersModule {
  /**
   * @param ports the modules that provide the EVENT_USAGE port (`event-usage.port.ts`; the sales side's
   *   OrdersCoreModule: an event with orders must never be deleted) and the EVENT_SEATING port
   *   (`event-seating.port.ts`; the SeatingModule) and the SUBEVENT_PRICES port
   *   (`subevents/subevent-prices.port.ts`; the catalogue's SubEventPricesModule), the EVENT_ITEM_META port
   *   (`event-item-meta.port.ts`; the catalogue's ItemMetaPropertiesModule), SALES_CHANNEL_ORDERS (the sales
   *   side's SalesUsageModule) and SALES_CHANNEL_REFERENCES (the catalogue's SalesChannelReferencesModule; both
   *   `sales-channels/sales-channel-usage.port.ts`): all mandatory
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
        SalesChannelsController,
        OrganizerSettingsController,
      ],
      providers: [
        OrganizerQueries,
        EventQueries,
        EventMetaPropertyQueries,
        OrganizersService,
        EventsService,
        EventMetaPropertiesService,
        SubEventReads,
        SubEventsService,
        SalesChannelsService,
        SalesChannelQueries,
        OrganizerSettingsService,
        OrganizerSettingsQueries,
      ],
      exports: [OrganizersService, EventsService, TenancyModule],
    };
  }
}
