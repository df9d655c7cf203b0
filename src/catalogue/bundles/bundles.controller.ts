import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateBundleDto, UpdateBundleDto } from './bundle.dto';
import { BundleJson } from './bundle.presenter';
import { BundlesService } from './bundles.service';

/**
 * `E/items/{item}/bundles/` (spec "Item bundles"; compat §3.13). Read: event access; write: `event.items:write`
 * (docs/permissions.md).
 */
@ApiTags('bundles')
@Controller('organizers/:organizer/events/:event/items/:item/bundles')
export class BundlesController {
  constructor(private readonly bundles: BundlesService) {}

  @Get()
  @RequireEventAccess()
  @ApiPaginatedResponse(BundleJson)
  @ListFilters({ ordering: ['id'] })
  listBundles(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<BundleJson>> {
    return this.bundles.list(event, itemId, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveBundle(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<BundleJson> {
    return this.bundles.get(event, itemId, id);
  }

  @Post()
  @RequirePermission('event.items:write')
  createBundle(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @Body() body: CreateBundleDto,
  ): Promise<BundleJson> {
    return this.bundles.create(event, principal, itemId, body);
  }

  @Put(':id')
  @RequirePermission('event.items:write')
  updateBundle(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: CreateBundleDto,
  ): Promise<BundleJson> {
    return this.bundles.update(event, principal, itemId, id, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.items:write')
  partialUpdateBundle(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: UpdateBundleDto,
  ): Promise<BundleJson> {
    return this.bundles.update(event, principal, itemId, id, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyBundle(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.bundles.delete(event, principal, itemId, id);
  }
}
