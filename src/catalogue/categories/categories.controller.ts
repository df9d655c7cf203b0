import { CatalogueListCache } from '../rendered-lists';
import { ConditionalList } from '../../audit/conditional-list';
import { IdParam } from '../../common/http/id-param';
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
import { CategoriesService } from './categories.service';
import { CreateCategoryDto, UpdateCategoryDto } from './category.dto';
import { CategoryJson } from './category.presenter';

/** `E/categories/` (compat §3.9). Read: event access; write: `event.items:write` (docs/permissions.md). */
@ApiTags('categories')
@Controller('organizers/:organizer/events/:event/categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @CatalogueListCache()
  @ConditionalList('itemcategory')
  @RequireEventAccess()
  @ApiPaginatedResponse(CategoryJson)
  @ListFilters({
    filters: { is_addon: filter.bool('Only add-on categories (`true`) or only ordinary ones (`false`).') },
    ordering: ['id', 'position'],
  })
  listCategories(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<CategoryJson>> {
    return this.categories.list(event, filters, page);
  }

  @Get(':id')
  @RequireEventAccess()
  retrieveCategory(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<CategoryJson> {
    return this.categories.get(event, id);
  }

  @Post()
  @RequirePermission('event.items:write')
  createCategory(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateCategoryDto,
  ): Promise<CategoryJson> {
    return this.categories.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.items:write')
  updateCategory(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateCategoryDto,
  ): Promise<CategoryJson> {
    return this.categories.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.items:write')
  partialUpdateCategory(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateCategoryDto,
  ): Promise<CategoryJson> {
    return this.categories.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyCategory(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.categories.delete(event, id, principal);
  }
}
