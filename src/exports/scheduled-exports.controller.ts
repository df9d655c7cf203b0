import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequireOrganizerAccess } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ListFilters } from '../common/http/list-filters';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';
import { CreateScheduledExportDto, UpdateScheduledExportDto } from './scheduled-export.dto';
import { ScheduledExportAccess } from './scheduled-export-access.guard';
import { ScheduledExportJson } from './scheduled-export.presenter';
import { ScheduledExportsService } from './scheduled-exports.service';

const ORDERING = ['id', 'export_identifier', 'schedule_next_run'];

/**
 * `E/scheduled_exports/` (spec "Scheduled exports"; compat §3.7). Event access at the route; tokens are checked by
 * {@link ScheduledExportAccess} before the body; the service applies the visibility rule (settings permission: all; user without it: own; token without it: 403), creation by
 * users only, and the anti-escalation rule.
 */
@ApiTags('scheduled exports')
@Controller('organizers/:organizer/events/:event/scheduled_exports')
@UseGuards(ScheduledExportAccess)
export class EventScheduledExportsController {
  constructor(private readonly exports: ScheduledExportsService) {}

  @Get()
  @RequireEventAccess()
  @ApiPaginatedResponse(ScheduledExportJson)
  @ListFilters({ ordering: ORDERING })
  scheduledEventExports(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<ScheduledExportJson>> {
    return this.exports.list({ organizer, event }, principal, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<ScheduledExportJson> {
    return this.exports.get({ organizer, event }, principal, id);
  }

  @Post()
  @RequireEventAccess()
  scheduledEventExports2(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateScheduledExportDto,
  ): Promise<ScheduledExportJson> {
    return this.exports.create({ organizer, event }, principal, body);
  }

  @Put(':id')
  @RequireEventAccess()
  updateScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: CreateScheduledExportDto,
  ): Promise<ScheduledExportJson> {
    return this.exports.update({ organizer, event }, principal, id, body, 'replace');
  }

  @Patch(':id')
  @RequireEventAccess()
  partialUpdateScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: UpdateScheduledExportDto,
  ): Promise<ScheduledExportJson> {
    return this.exports.update({ organizer, event }, principal, id, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireEventAccess()
  async destroyScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.exports.delete({ organizer, event }, principal, id);
  }
}

/** `O/scheduled_exports/` (spec "Scheduled exports"; compat §3.7): as the event level, plus `timezone`. */
@ApiTags('scheduled exports')
@Controller('organizers/:organizer/scheduled_exports')
@UseGuards(ScheduledExportAccess)
export class OrganizerScheduledExportsController {
  constructor(private readonly exports: ScheduledExportsService) {}

  @Get()
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(ScheduledExportJson)
  @ListFilters({ ordering: ORDERING })
  scheduledOrganizerOrganizerExports(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<ScheduledExportJson>> {
    return this.exports.list({ organizer, event: null }, principal, filters, page);
  }

  @Get(':id')
  @RequireOrganizerAccess()
  retrieveOrganizerScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<ScheduledExportJson> {
    return this.exports.get({ organizer, event: null }, principal, id);
  }

  @Post()
  @RequireOrganizerAccess()
  scheduledOrganizerOrganizerExports2(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateScheduledExportDto,
  ): Promise<ScheduledExportJson> {
    return this.exports.create({ organizer, event: null }, principal, body);
  }

  @Put(':id')
  @RequireOrganizerAccess()
  updateOrganizerScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: CreateScheduledExportDto,
  ): Promise<ScheduledExportJson> {
    return this.exports.update({ organizer, event: null }, principal, id, body, 'replace');
  }

  @Patch(':id')
  @RequireOrganizerAccess()
  partialUpdateOrganizerScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: UpdateScheduledExportDto,
  ): Promise<ScheduledExportJson> {
    return this.exports.update({ organizer, event: null }, principal, id, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireOrganizerAccess()
  async destroyOrganizerScheduledExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.exports.delete({ organizer, event: null }, principal, id);
  }
}
