import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { isoUtc } from '../../common/values/datetime';
import { Event } from '../../organizers/event.entity';
import { ORDER_DETAIL_FILTERS, ORDER_LIST_FILTERS } from './order-filters';
import { OrderCreator } from '../create/order-creator.service';
import { CreateOrderDto, UpdateOrderDto } from '../create/order.dto';
import { OrderJson } from './order.presenter';
import { OrdersService } from './orders.service';
import { NoStore } from '../../common/http/no-store';

/**
 * `E/orders/` (compat §4.4), orders addressed by code. Read: `event.orders:read`; write: `event.orders:write`
 * (docs/permissions.md). PUT has no route, so it answers 405 `Method "PUT" not allowed.` (route table).
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orders')
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly creator: OrderCreator,
  ) {}

  /**
   * The list, with header `X-Page-Generated`: pass it back as `modified_since` (the time the list's snapshot is
   * complete from; see `OrderListQueries.syncHorizon`).
   */
  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(OrderJson)
  @ListFilters(ORDER_LIST_FILTERS)
  listOrders(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Paginated<OrderJson>> {
    return this.orders.list(event, filters, page).then(({ page: result, generated }) => {
      res.setHeader('X-Page-Generated', isoUtc(generated));
      return result;
    });
  }

  @Get(':code')
  @RequirePermission('event.orders:read')
  @ListFilters(ORDER_DETAIL_FILTERS)
  retrieveOrder(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @Filters() filters: QueryFilters,
  ): Promise<OrderJson> {
    return this.orders.get(event, code, filters);
  }

  @Post()
  @RequirePermission('event.orders:write')
  createOrder(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateOrderDto,
  ): Promise<OrderJson> {
    return this.creator.create(event, principal, body);
  }

  @Patch(':code')
  @RequirePermission('event.orders:write')
  partialUpdateOrder(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateOrderDto,
  ): Promise<OrderJson> {
    return this.orders.update(event, code, principal, body);
  }

  @Delete(':code')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  async destroyOrder(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.orders.delete(event, code, principal);
  }
}
