import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { filter, ListFilters } from '../../common/http/list-filters';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Organizer } from '../organizer.entity';
import { CreateSalesChannelDto, UpdateSalesChannelDto } from './sales-channel.dto';
import { SalesChannelJson } from './sales-channel.presenter';
import { SalesChannelsService } from './sales-channels.service';

/**
 * `O/saleschannels/` (pretix `SalesChannelViewSet`; looked up by `identifier`). Reads and writes need
 * `organizer.settings.general:write`, as in pretix.
 */
@ApiTags('sales channels')
@Controller('organizers/:organizer/saleschannels')
export class SalesChannelsController {
  constructor(private readonly channels: SalesChannelsService) {}

  @Get()
  @RequirePermission('organizer.settings.general:write')
  @ApiPaginatedResponse(SalesChannelJson)
  @ListFilters({
    filters: {
      type: filter.text('Only channels of this type (`web`, `api`).'),
      identifier: filter.text('Only the channel with this identifier.'),
    },
  })
  listSalesChannels(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SalesChannelJson>> {
    return this.channels.list(organizer, filters, page);
  }

  @Get(':identifier')
  @RequirePermission('organizer.settings.general:write')
  retrieveSalesChannel(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
  ): Promise<SalesChannelJson> {
    return this.channels.get(organizer, identifier);
  }

  @Post()
  @RequirePermission('organizer.settings.general:write')
  createSalesChannel(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSalesChannelDto,
  ): Promise<SalesChannelJson> {
    return this.channels.create(organizer, principal, body);
  }

  @Put(':identifier')
  @RequirePermission('organizer.settings.general:write')
  updateSalesChannel(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSalesChannelDto,
  ): Promise<SalesChannelJson> {
    return this.channels.update(organizer, identifier, principal, body, 'replace');
  }

  @Patch(':identifier')
  @RequirePermission('organizer.settings.general:write')
  partialUpdateSalesChannel(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateSalesChannelDto,
  ): Promise<SalesChannelJson> {
    return this.channels.update(organizer, identifier, principal, body, 'patch');
  }

  @Delete(':identifier')
  @HttpCode(204)
  @RequirePermission('organizer.settings.general:write')
  async destroySalesChannel(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.channels.delete(organizer, identifier, principal);
  }
}
