import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequireOrganizerAccess, RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { filter, ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { CreateEventDto, UpdateEventDto } from './event.dto';
import { Event } from './event.entity';
import { EventJson } from './event.presenter';
import { EventsService } from './events.service';
import { Organizer } from './organizer.entity';

/** `O/events/` (compat §4.2; permissions per docs/permissions.md). */
@ApiTags('events')
@Controller('organizers/:organizer/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(EventJson)
  @ListFilters({
    filters: {
      live: filter.bool('Only live (`true`) or only not live (`false`) events.'),
      has_subevents: filter.bool('Only event series (`true`) or only single events (`false`).'),
      is_public: filter.bool('Only public (`true`) or only non-public (`false`) events.'),
      testmode: filter.bool('Only events in test mode (`true`) or only live-mode ones (`false`).'),
      is_future: filter.bool('Only events that have not ended (`true`) or only ended ones (`false`).'),
      is_past: filter.bool('Only ended events (`true`) or only events that have not ended (`false`).'),
      ends_after: filter.datetime('Events ending (or, without an end, starting) at or after this time.'),
      sales_channel: filter.text('Events sold through this channel identifier (or through all channels).'),
    },
    ordering: ['date_from', 'slug'],
  })
  listEvents(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<EventJson>> {
    return this.events.list(organizer, principal, filters, page);
  }

  @Get(':event')
  @RequireEventAccess()
  retrieveEvent(@CurrentOrganizer() organizer: Organizer, @CurrentEvent() event: Event): Promise<EventJson> {
    return this.events.get(organizer, event);
  }

  /**
   * `POST O/events/`; with `?clone_from=<event slug>` (or `<organizer slug>/<event slug>` of this organizer) the
   * source's data is copied into the new event as `POST E/clone/` does.
   */
  @Post()
  @RequirePermission('organizer.events:create')
  @ApiQuery({
    name: 'clone_from',
    required: false,
    type: String,
    description:
      'Slug of an event of this organizer (or `<organizer>/<event>`) whose data (settings, products, quotas, …) ' +
      'is copied into the new event, as `POST E/clone/` does. Another organizer is refused.',
  })
  createEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEventDto,
    @Query('clone_from') cloneFrom?: string,
  ): Promise<EventJson> {
    if (cloneFrom !== undefined) return this.events.createFrom(organizer, principal, body, cloneFrom);
    return this.events.create(organizer, principal, body);
  }

  /**
   * `POST E/clone/` (compat §4.2): a new event from an event create body with the source's data copied; 201 with
   * the new event. Needs `organizer.events:create` and access to the source.
   */
  @Post(':event/clone')
  @RequirePermission('organizer.events:create')
  cloneEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() source: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEventDto,
  ): Promise<EventJson> {
    return this.events.clone(organizer, source, principal, body);
  }

  @Put(':event')
  @RequirePermission('event.settings.general:write')
  updateEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEventDto,
  ): Promise<EventJson> {
    return this.events.update(organizer, event, principal, body, 'replace');
  }

  @Patch(':event')
  @RequirePermission('event.settings.general:write')
  partialUpdateEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateEventDto,
  ): Promise<EventJson> {
    return this.events.update(organizer, event, principal, body, 'patch');
  }

  @Delete(':event')
  @HttpCode(204)
  @RequirePermission('event.settings.general:write')
  async destroyEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.events.delete(organizer, event, principal);
  }
}
