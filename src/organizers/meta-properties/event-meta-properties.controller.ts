import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ListFilters } from '../../common/http/list-filters';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Organizer } from '../organizer.entity';
import { CreateEventMetaPropertyDto, UpdateEventMetaPropertyDto } from './event-meta-property.dto';
import { EventMetaPropertyJson } from './event-meta-property.presenter';
import { EventMetaPropertiesService } from './event-meta-properties.service';

/**
 * `O/event_meta_properties/` (compat §1.1 router; permissions per docs/permissions.md: reads and writes need
 * `organizer.settings.general:write`).
 */
@ApiTags('event meta properties')
@Controller('organizers/:organizer/event_meta_properties')
export class EventMetaPropertiesController {
  constructor(private readonly properties: EventMetaPropertiesService) {}

  @Get()
  @RequirePermission('organizer.settings.general:write')
  @ApiPaginatedResponse(EventMetaPropertyJson)
  @ListFilters({ ordering: ['id', 'name'] })
  listEventMetaProperties(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<EventMetaPropertyJson>> {
    return this.properties.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.settings.general:write')
  retrieveEventMetaProperty(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
  ): Promise<EventMetaPropertyJson> {
    return this.properties.get(organizer, id);
  }

  @Post()
  @RequirePermission('organizer.settings.general:write')
  createEventMetaProperty(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEventMetaPropertyDto,
  ): Promise<EventMetaPropertyJson> {
    return this.properties.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.settings.general:write')
  updateEventMetaProperty(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEventMetaPropertyDto,
  ): Promise<EventMetaPropertyJson> {
    return this.properties.update(organizer, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('organizer.settings.general:write')
  partialUpdateEventMetaProperty(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateEventMetaPropertyDto,
  ): Promise<EventMetaPropertyJson> {
    return this.properties.update(organizer, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.settings.general:write')
  async destroyEventMetaProperty(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.properties.delete(organizer, id, principal);
  }
}
