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
import { CreateItemMetaPropertyDto, UpdateItemMetaPropertyDto } from './item-meta-property.dto';
import { ItemMetaPropertyJson } from './item-meta-property.presenter';
import { ItemMetaPropertiesService } from './item-meta-properties.service';

/**
 * `E/item_meta_properties/` (pretix "Item meta properties"). Read: event access; write:
 * `event.settings.general:write` (pretix's `write_permission = 'can_change_event_settings'`).
 */
@ApiTags('item meta properties')
@Controller('organizers/:organizer/events/:event/item_meta_properties')
export class ItemMetaPropertiesController {
  constructor(private readonly properties: ItemMetaPropertiesService) {}

  @Get()
  @RequireEventAccess()
  @ApiPaginatedResponse(ItemMetaPropertyJson)
  @ListFilters({ ordering: ['id', 'name'] })
  listItemMetaProperties(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<ItemMetaPropertyJson>> {
    return this.properties.list(event, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveItemMetaProperty(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
  ): Promise<ItemMetaPropertyJson> {
    return this.properties.get(event, id);
  }

  @Post()
  @RequirePermission('event.settings.general:write')
  createItemMetaProperty(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateItemMetaPropertyDto,
  ): Promise<ItemMetaPropertyJson> {
    return this.properties.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.settings.general:write')
  updateItemMetaProperty(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateItemMetaPropertyDto,
  ): Promise<ItemMetaPropertyJson> {
    return this.properties.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.settings.general:write')
  partialUpdateItemMetaProperty(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateItemMetaPropertyDto,
  ): Promise<ItemMetaPropertyJson> {
    return this.properties.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.settings.general:write')
  async destroyItemMetaProperty(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.properties.delete(event, id, principal);
  }
}
