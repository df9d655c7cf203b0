import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { NoStore } from '../../common/http/no-store';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Event } from '../../organizers/event.entity';
import { OrderRefundJson } from '../presentation/order-parts.presenter';
import { CreateOrderRefundDto, ProcessOrderRefundDto } from './order-refund.dto';
import { OrderRefunds } from './order-refunds.service';

/**
 * `E/orders/{code}/refunds/` (pretix doc "Order refund endpoints"): list and detail by `local_id` (permission
 * `event.orders:read`); create, `done`, `process`, `cancel` (permission `event.orders:write`; docs/permissions.md).
 * 404 `{"detail": "Not found."}` for an unknown order or refund; 400 `{"detail": "Invalid state of refund"}` for a
 * transition the refund's state does not allow, `{"payment": ["Unknown payment."]}` for a payment not of the
 * order; 409 when the order's lock cannot be had in time.
 */
@ApiTags('orders')
@Controller('organizers/:organizer/events/:event/orders/:code/refunds')
export class OrderRefundsController {
  constructor(private readonly refunds: OrderRefunds) {}

  /** The order's refunds by `local_id` (paginated). */
  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(OrderRefundJson)
  listOrderRefunds(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrderRefundJson>> {
    return this.refunds.list(event, code, page);
  }

  /** One refund of the order, by `local_id`. */
  @Get(':id')
  @RequirePermission('event.orders:read')
  retrieveOrderRefund(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @IdParam('id') localId: number,
  ): Promise<OrderRefundJson> {
    return this.refunds.get(event, code, localId);
  }

  /** Records a refund. */
  @Post()
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiCreatedResponse({ type: OrderRefundJson })
  createOrderRefund(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: CreateOrderRefundDto,
  ): Promise<OrderRefundJson> {
    return this.refunds.create(event, principal, code, body);
  }

  /** Created or transit → done. No body. */
  @Post(':id/done')
  @HttpCode(200)
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderRefundJson })
  markOrderRefundDone(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @IdParam('id') localId: number,
  ): Promise<OrderRefundJson> {
    return this.refunds.done(event, principal, code, localId);
  }

  /** External → done, optionally canceling the order. */
  @Post(':id/process')
  @HttpCode(200)
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderRefundJson })
  processOrderRefund(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @IdParam('id') localId: number,
    @Body() body: ProcessOrderRefundDto,
  ): Promise<OrderRefundJson> {
    return this.refunds.process(event, principal, code, localId, body);
  }

  /** Created, transit or external → canceled. No body. */
  @Post(':id/cancel')
  @HttpCode(200)
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderRefundJson })
  cancelOrderRefund(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @IdParam('id') localId: number,
  ): Promise<OrderRefundJson> {
    return this.refunds.cancel(event, principal, code, localId);
  }
}
