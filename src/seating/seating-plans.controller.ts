import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from '../organizers/organizer.entity';
import { CreateSeatingPlanDto, UpdateSeatingPlanDto } from './seating-plan.dto';
import { SeatingPlanJson } from './seating-plan.presenter';
import { SeatingPlansService } from './seating-plans.service';

/**
 * `O/seatingplans/` (compat §3.5). Read and write need `organizer.seatingplans:write` or the organizer settings
 * permission (docs/permissions.md).
 */
@ApiTags('seating plans')
@Controller('organizers/:organizer/seatingplans')
export class SeatingPlansController {
  constructor(private readonly plans: SeatingPlansService) {}

  @Get()
  @RequirePermission('organizer.seatingplans:write', 'organizer.settings.general:write')
  @ApiPaginatedResponse(SeatingPlanJson)
  @ListFilters({ ordering: ['name', 'id'] })
  listSeatingPlans(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SeatingPlanJson>> {
    return this.plans.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.seatingplans:write', 'organizer.settings.general:write')
  retrieveSeatingPlan(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
  ): Promise<SeatingPlanJson> {
    return this.plans.get(organizer, id);
  }

  @Post()
  @RequirePermission('organizer.seatingplans:write', 'organizer.settings.general:write')
  createSeatingPlan(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSeatingPlanDto,
  ): Promise<SeatingPlanJson> {
    return this.plans.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.seatingplans:write', 'organizer.settings.general:write')
  updateSeatingPlan(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSeatingPlanDto,
  ): Promise<SeatingPlanJson> {
    return this.plans.update(organizer, id, principal, body);
  }

  @Patch(':id')
  @RequirePermission('organizer.seatingplans:write', 'organizer.settings.general:write')
  partialUpdateSeatingPlan(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateSeatingPlanDto,
  ): Promise<SeatingPlanJson> {
    return this.plans.update(organizer, id, principal, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.seatingplans:write', 'organizer.settings.general:write')
  async destroySeatingPlan(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.plans.delete(organizer, id, principal);
  }
}
