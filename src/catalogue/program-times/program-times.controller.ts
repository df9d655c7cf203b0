import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ListFilters } from '../../common/http/list-filters';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateProgramTimeDto, UpdateProgramTimeDto } from './program-time.dto';
import { ProgramTimeJson } from './program-time.presenter';
import { ProgramTimesService } from './program-times.service';

/**
 * `E/items/{item}/program_times/` (pretix 2025+ "Item program times"). Read: event access; write:
 * `event.items:write` (pretix's `write_permission`). On an event series every route answers 400.
 */
@ApiTags('program times')
@Controller('organizers/:organizer/events/:event/items/:item/program_times')
export class ProgramTimesController {
  constructor(private readonly programTimes: ProgramTimesService) {}

  @Get()
  @RequireEventAccess()
  @ApiPaginatedResponse(ProgramTimeJson)
  @ListFilters({ ordering: ['id'] })
  listProgramTimes(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<ProgramTimeJson>> {
    return this.programTimes.list(event, itemId, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveProgramTime(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<ProgramTimeJson> {
    return this.programTimes.get(event, itemId, id);
  }

  @Post()
  @RequirePermission('event.items:write')
  createProgramTime(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @Body() body: CreateProgramTimeDto,
  ): Promise<ProgramTimeJson> {
    return this.programTimes.create(event, principal, itemId, body);
  }

  @Put(':id')
  @RequirePermission('event.items:write')
  updateProgramTime(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: CreateProgramTimeDto,
  ): Promise<ProgramTimeJson> {
    return this.programTimes.update(event, principal, itemId, id, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.items:write')
  partialUpdateProgramTime(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: UpdateProgramTimeDto,
  ): Promise<ProgramTimeJson> {
    return this.programTimes.update(event, principal, itemId, id, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyProgramTime(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.programTimes.delete(event, principal, itemId, id);
  }
}
