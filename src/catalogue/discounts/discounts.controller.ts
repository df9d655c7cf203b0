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
import { CreateDiscountDto, UpdateDiscountDto } from './discount.dto';
import { DiscountJson } from './discount.presenter';
import { DiscountsService } from './discounts.service';

/**
 * `E/discounts/` (spec "Discounts"; compat §3.25), plus DELETE at the singular `E/discount/{id}/` the spec lists.
 * Read: event access; write: `event.items:write` (docs/permissions.md).
 */
@ApiTags('discounts')
@Controller('organizers/:organizer/events/:event')
export class DiscountsController {
  constructor(private readonly discounts: DiscountsService) {}

  @Get('discounts')
  @RequireEventAccess()
  @ApiPaginatedResponse(DiscountJson)
  @ListFilters({
    filters: { active: filter.bool('Only active (`true`) or only inactive (`false`) discounts.') },
    ordering: ['id', 'position'],
  })
  listDiscounts(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<DiscountJson>> {
    return this.discounts.list(event, filters, page);
  }

  @Get('discounts/:id')
  @RequireEventAccess()
  retrieveDiscount(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<DiscountJson> {
    return this.discounts.get(event, id);
  }

  @Post('discounts')
  @RequirePermission('event.items:write')
  createDiscount(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateDiscountDto,
  ): Promise<DiscountJson> {
    return this.discounts.create(event, principal, body);
  }

  @Put('discounts/:id')
  @RequirePermission('event.items:write')
  updateDiscount(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateDiscountDto,
  ): Promise<DiscountJson> {
    return this.discounts.update(event, id, principal, body, 'replace');
  }

  @Patch('discounts/:id')
  @RequirePermission('event.items:write')
  partialUpdateDiscount(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateDiscountDto,
  ): Promise<DiscountJson> {
    return this.discounts.update(event, id, principal, body, 'patch');
  }

  @Delete('discounts/:id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyDiscount(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.discounts.delete(event, id, principal);
  }

  /** The singular form the spec's endpoint table lists for DELETE; same behaviour as the plural one. */
  @Delete('discount/:id')
  @HttpCode(204)
  @RequirePermission('event.items:write')
  async destroyDiscountByAlias(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.discounts.delete(event, id, principal);
  }
}
