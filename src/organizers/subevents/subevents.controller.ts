import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequireOrganizerAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { filter, ListFilters, QueryParamDoc } from '../../common/http/list-filters';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../event.entity';
import { Organizer } from '../organizer.entity';
import { CreateSubEventDto, UpdateSubEventDto } from './subevent.dto';
import { SubEventJson } from './subevent.presenter';
import { SUBEVENT_ORDERING, SubEventReads } from './subevent-reads.service';
import { SubEventsService } from './subevents.service';

/** The filters of both date lists (compat §3.17). */
const COMMON_FILTERS: Record<string, QueryParamDoc> = {
  active: filter.bool('Only dates whose shop is active (`true`) or inactive (`false`).'),
  is_public: filter.bool('Only public (`true`) or only non-public (`false`) dates.'),
  is_future: filter.bool('Only dates that have not ended (`true`) or only ended ones (`false`).'),
  is_past: filter.bool('Only ended dates (`true`) or only dates that have not ended (`false`).'),
  ends_after: filter.datetime('Dates ending (or, without an end, starting) at or after this time.'),
  attr: filter.keyed(
    "`attr[<property>]=<value>`: dates whose meta-data value of that property (else the series' value, else " +
      "the property's default) is the value; an empty value matches dates with no value.",
  ),
};

/**
 * `E/subevents/` (spec "Sub-events"; compat §3.17). Reads: event access; create: `organizer.events:create`
 * (spec); update and delete: `event.subevents:write` (docs/permissions.md).
 */
@ApiTags('sub-events')
@Controller('organizers/:organizer/events/:event/subevents')
export class SubEventsController {
  constructor(
    private readonly subevents: SubEventsService,
    private readonly queries: SubEventReads,
  ) {}

  @Get()
  @RequireEventAccess()
  @ApiPaginatedResponse(SubEventJson)
  @ListFilters({ filters: COMMON_FILTERS, ordering: SUBEVENT_ORDERING })
  listSubEvents(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SubEventJson>> {
    return this.queries.listOfEvent(event, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveSubEvent(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<SubEventJson> {
    return this.queries.get(event, id);
  }

  @Post()
  @RequirePermission('organizer.events:create')
  createSubEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSubEventDto,
  ): Promise<SubEventJson> {
    return this.subevents.create(organizer, event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.subevents:write')
  updateSubEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSubEventDto,
  ): Promise<SubEventJson> {
    return this.subevents.update(organizer, event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.subevents:write')
  partialUpdateSubEvent(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateSubEventDto,
  ): Promise<SubEventJson> {
    return this.subevents.update(organizer, event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.subevents:write')
  async destroySubEvent(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.subevents.delete(event, id, principal);
  }
}

/** `GET O/subevents/` (spec "Sub-events"): the dates of every series the credential reaches; list only. */
@ApiTags('sub-events')
@Controller('organizers/:organizer/subevents')
export class OrganizerSubEventsController {
  constructor(private readonly queries: SubEventReads) {}

  @Get()
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(SubEventJson)
  @ListFilters({
    filters: {
      ...COMMON_FILTERS,
      event__live: filter.bool('Only dates whose series is live (`true`) or not live (`false`).'),
    },
    ordering: SUBEVENT_ORDERING,
  })
  listOrganizerSubEvents(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SubEventJson>> {
    return this.queries.listOfOrganizer(organizer, principal, filters, page);
  }
}
