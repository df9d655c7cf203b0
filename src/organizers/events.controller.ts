import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequireOrganizerAccess, RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
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
  list(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<EventJson>> {
    return this.events.list(organizer, principal, filters, page);
  }

  @Get(':event')
  @RequireEventAccess()
  get(@CurrentEvent() event: Event): EventJson {
    return this.events.get(event);
  }

  @Post()
  @RequirePermission('organizer.events:create')
  create(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEventDto,
  ): Promise<EventJson> {
    return this.events.create(organizer, principal, body);
  }

  @Put(':event')
  @RequirePermission('event.settings.general:write')
  replace(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEventDto,
  ): Promise<EventJson> {
    return this.events.update(organizer, event, principal, body, 'replace');
  }

  @Patch(':event')
  @RequirePermission('event.settings.general:write')
  update(
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
  async remove(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.events.delete(organizer, event, principal);
  }
}
