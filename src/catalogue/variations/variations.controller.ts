import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { filter, ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { CreateVariationDto, UpdateVariationDto } from './variation.dto';
import { VariationJson } from './variation.presenter';
import { VariationsService } from './variations.service';

/**
 * `E/items/{item}/variations/` (spec "Item variations"; compat §3.11). Read: event access; write:
 * `event.items:write` (docs/permissions.md). An unknown item, or one of another event, is 403 like for every
 * nested resource (the spec's "403 also when the item does not exist"; pretix answers 404).
 */
@ApiTags('variations')
@Controller('organizers/:organizer/events/:event/items/:item/variations')
export class VariationsController {
  constructor(private readonly variations: VariationsService) {}

  @Get()
  @RequireEventAccess()
  @ApiPaginatedResponse(VariationJson)
  @ListFilters({
    filters: {
      active: filter.bool('Only active (`true`) or only inactive (`false`) variations.'),
      search: filter.text('Case-insensitive substring of any translation of the value.'),
    },
    ordering: ['id', 'position'],
  })
  listVariations(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<VariationJson>> {
    return this.variations.list(event, itemId, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveVariation(
    @CurrentEvent() event: Event,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<VariationJson> {
    return this.variations.get(event, itemId, id);
  }

  @Post()
  @RequirePermission('event.items:write')
  createVariation(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @Body() body: CreateVariationDto,
  ): Promise<VariationJson> {
    return this.variations.create(event, principal, itemId, body);
  }

  @Put(':id')
  @RequirePermission('event.items:write')
  updateVariation(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: CreateVariationDto,
  ): Promise<VariationJson> {
    return this.variations.update(event, principal, itemId, id, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.items:write')
  partialUpdateVariation(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
    @Body() body: UpdateVariationDto,
  ): Promise<VariationJson> {
    return this.variations.update(event, principal, itemId, id, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyVariation(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('item') itemId: number,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.variations.delete(event, principal, itemId, id);
  }
}
