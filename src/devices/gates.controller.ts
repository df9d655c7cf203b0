import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Organizer } from '../organizers/organizer.entity';
import { CreateGateDto, UpdateGateDto } from './gate.dto';
import { GateJson } from './gate.presenter';
import { GatesService } from './gates.service';

/**
 * `O/gates/` (extension: pretix has no API for gates): list, detail, create, PATCH, DELETE. Reads need
 * `organizer.devices:read`, writes `organizer.devices:write`.
 */
@ApiTags('devices')
@Controller('organizers/:organizer/gates')
export class GatesController {
  constructor(private readonly gates: GatesService) {}

  @Get()
  @RequirePermission('organizer.devices:read')
  @ApiPaginatedResponse(GateJson)
  listGates(
    @CurrentOrganizer() organizer: Organizer,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<GateJson>> {
    return this.gates.list(organizer, page);
  }

  @Get(':id')
  @RequirePermission('organizer.devices:read')
  retrieveGate(@CurrentOrganizer() organizer: Organizer, @IdParam('id') id: number): Promise<GateJson> {
    return this.gates.get(organizer, id);
  }

  @Post()
  @RequirePermission('organizer.devices:write')
  createGate(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateGateDto,
  ): Promise<GateJson> {
    return this.gates.create(organizer, principal, body);
  }

  @Patch(':id')
  @RequirePermission('organizer.devices:write')
  partialUpdateGate(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: UpdateGateDto,
  ): Promise<GateJson> {
    return this.gates.update(organizer, principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.devices:write')
  async destroyGate(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.gates.delete(organizer, principal, id);
  }
}
