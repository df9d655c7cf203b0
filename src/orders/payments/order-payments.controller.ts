import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { NoStore } from '../../common/http/no-store';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { IdParam } from '../../common/http/id-param';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Event } from '../../organizers/event.entity';
import { OrderPaymentJson } from '../presentation/order.presenter';
import { OrderRefundJson } from '../presentation/order-parts.presenter';
import { OrderPaymentActions } from './order-payment-actions.service';
import { ConfirmOrderPaymentDto, CreateOrderPaymentDto, RefundOrderPaymentDto } from './order-payment.dto';
import { OrderPaymentsApi } from './order-payments-api.service';

/**
 * `E/orders/{code}/payments/` (pretix doc "Order payment endpoints"): list and detail by `local_id`, permission
 * `event.orders:read` (docs/permissions.md); create, confirm, cancel and refund, permission `event.orders:write`.
 * 404 `{"detail": "Not found."}` for an unknown order or payment; 400 with pretix's bodies for refusals
 * (`{"detail": "Invalid state of payment"}`, `{"amount": [...]}`, a quota message); 409 when the order's lock
 * cannot be had in time.
 */
@ApiTags('orders')
@Controller('organizers/:organizer/events/:event/orders/:code/payments')
export class OrderPaymentsController {
  constructor(
    private readonly payments: OrderPaymentsApi,
    private readonly actions: OrderPaymentActions,
  ) {}

  /** The order's payments by `local_id` (paginated). */
  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(OrderPaymentJson)
  listOrderPayments(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrderPaymentJson>> {
    return this.payments.list(event, code, page);
  }

  /** One payment of the order, by `local_id`. */
  @Get(':id')
  @RequirePermission('event.orders:read')
  retrieveOrderPayment(
    @CurrentEvent() event: Event,
    @Param('code') code: string,
    @IdParam('id') localId: number,
  ): Promise<OrderPaymentJson> {
    return this.payments.get(event, code, localId);
  }

  /** Records a payment; one sent as `confirmed` counts at once (the order is paid when covered). */
  @Post()
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiCreatedResponse({ type: OrderPaymentJson })
  createOrderPayment(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: CreateOrderPaymentDto,
  ): Promise<OrderPaymentJson> {
    return this.actions.create(event, principal, code, body);
  }

  /** Created or pending → confirmed; the order becomes paid when its payments cover it. */
  @Post(':id/confirm')
  @HttpCode(200)
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderPaymentJson })
  confirmOrderPayment(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @IdParam('id') localId: number,
    @Body() body: ConfirmOrderPaymentDto,
  ): Promise<OrderPaymentJson> {
    return this.actions.confirm(event, principal, code, localId, body);
  }

  /** Created or pending → canceled. No body. */
  @Post(':id/cancel')
  @HttpCode(200)
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderPaymentJson })
  cancelOrderPayment(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @IdParam('id') localId: number,
  ): Promise<OrderPaymentJson> {
    return this.actions.cancel(event, principal, code, localId);
  }

  /** Refunds (part of) a confirmed payment; answers the new refund. */
  @Post(':id/refund')
  @HttpCode(200)
  @NoStore()
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderRefundJson })
  refundOrderPayment(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @IdParam('id') localId: number,
    @Body() body: RefundOrderPaymentDto,
  ): Promise<OrderRefundJson> {
    return this.actions.refund(event, principal, code, localId, body);
  }
}
