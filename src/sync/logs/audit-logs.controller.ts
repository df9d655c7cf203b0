import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { filter, ListFilters, ListFiltersSpec } from '../../common/http/list-filters';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { Organizer } from '../../organizers/organizer.entity';
import { CHANGE_RESOURCE_NAMES } from '../change-resources';
import { ACTOR_TYPES, AuditFieldChangeJson, AuditLogEntryJson } from './audit-log.presenter';
import { AuditLogsService, LOG_ORDERING } from './audit-logs.service';

/** The query parameters of every log list. */
const LOG_FILTERS: ListFiltersSpec = {
  filters: {
    action_type: {
      schema: { type: 'array', items: { type: 'string', maxLength: 100 } },
      style: 'form',
      explode: true,
      description:
        'Entries of this action type; `<prefix>.*` matches every action type starting with `<prefix>.` ' +
        '(as webhooks match, e.g. `pretix.event.order.*`). Repeatable (any of them).',
    },
    actor_type: filter.choice(ACTOR_TYPES, 'Entries written by this kind of actor (`system`: no actor).'),
    datetime_since: filter.datetime('Entries written at or after this time.'),
    datetime_until: filter.datetime('Entries written at or before this time.'),
    resource: {
      schema: { type: 'array', items: { type: 'string', enum: [...CHANGE_RESOURCE_NAMES] } },
      style: 'form',
      explode: true,
      description:
        'Entries about objects of this resource (as in `object.resource`). Repeatable (any of them).',
    },
  },
  ordering: LOG_ORDERING,
};

/**
 * The audit log API (README "Audit log"; issue 27 §4): who changed what, newest first by default. Entries about
 * resources the credential may not read are left out (their resource's read permission, per event; team
 * `limit_events` apply).
 */
@ApiTags('logs')
@ApiExtraModels(AuditFieldChangeJson)
@Controller('organizers/:organizer')
export class AuditLogsController {
  constructor(private readonly logs: AuditLogsService) {}

  /**
   * The organizer's entries and those of the events the credential reaches. Needs
   * `organizer.settings.general:write` (the model has no separate read permission for organizer settings).
   */
  @Get('logs')
  @RequirePermission('organizer.settings.general:write')
  @ApiPaginatedResponse(AuditLogEntryJson)
  @ListFilters(LOG_FILTERS)
  listOrganizerLogs(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<AuditLogEntryJson>> {
    return this.logs.organizerLogs(organizer, principal, filters, page);
  }

  /** The event's entries readable with the credential's permissions on the event. Needs event access. */
  @Get('events/:event/logs')
  @RequireEventAccess()
  @ApiPaginatedResponse(AuditLogEntryJson)
  @ListFilters(LOG_FILTERS)
  listEventLogs(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<AuditLogEntryJson>> {
    return this.logs.eventLogs(event, principal, filters, page);
  }

  /** The entries about one order (its check-ins included). Needs `event.orders:read`; 404 for an unknown code. */
  @Get('events/:event/orders/:code/logs')
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(AuditLogEntryJson)
  @ListFilters(LOG_FILTERS)
  listOrderLogs(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<AuditLogEntryJson>> {
    return this.logs.orderLogs(event, code, principal, filters, page);
  }
}
