import { CatalogueListCache } from '../rendered-lists';
import { ConditionalList } from '../../audit/conditional-list';
import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { filter, ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { IdParam } from '../../common/http/id-param';
import { CreateItemDto, ReplaceItemDto, UpdateItemDto } from './item.dto';
import { ItemJson } from './item.presenter';
import { ItemsService } from './items.service';

/** `E/items/` (compat §3.10). Read: event access; write: `event.items:write` (docs/permissions.md). */
@ApiTags('items')
@Controller('organizers/:organizer/events/:event/items')
export class ItemsController {
  constructor(private readonly items: ItemsService) {}

  @Get()
  @CatalogueListCache()
  @ConditionalList('item')
  @RequireEventAccess()
  @ApiPaginatedResponse(ItemJson)
  @ListFilters({
    filters: {
      active: filter.bool('Only active (`true`) or only inactive (`false`) products.'),
      admission: filter.bool('Only admission products (`true`) or only others (`false`).'),
      free_price: filter.bool('Only products with (`true`) or without (`false`) a free price.'),
      category: filter.int('Id of the product category.'),
      tax_rate: {
        schema: { type: 'string', pattern: '^(-?\\d+(\\.\\d+)?|None)$' },
        description:
          "Rate of the product's tax rule, e.g. `19.00`; `0` or `None` include products without one.",
      },
      search: filter.text(
        'Case-insensitive substring of any translation of the name or of the internal name.',
      ),
    },
    ordering: ['id', 'position'],
  })
  listItems(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<ItemJson>> {
    return this.items.list(event, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveItem(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<ItemJson> {
    return this.items.get(event, id);
  }

  @Post()
  @RequirePermission('event.items:write')
  createItem(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateItemDto,
  ): Promise<ItemJson> {
    return this.items.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.items:write')
  updateItem(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: ReplaceItemDto,
  ): Promise<ItemJson> {
    return this.items.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.items:write')
  partialUpdateItem(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateItemDto,
  ): Promise<ItemJson> {
    return this.items.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyItem(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.items.delete(event, id, principal);
  }
}
