import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { Event } from '../../organizers/event.entity';
import {
  ApproveOrderDto,
  DenyOrderDto,
  ExtendOrderDto,
  MarkCanceledDto,
  MarkPaidDto,
} from './order-action.dto';
import { OrderActionsService } from './order-actions.service';
import { OrderJson } from '../presentation/order.presenter';
import { NoStore } from '../../common/http/no-store';

/**
 * Order status actions `POST E/orders/{code}/<action>/` (compat §4.4 "Actions"), permission `event.orders:write`
 * (docs/permissions.md). Each answers 200 with the full updated order; 400 `{"detail": ...}` when the order's
 * state, quota or a voucher does not allow the action; 404 for a code that is not an order of this event; 409
 * when a lock cannot be had in time.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orders/:code')
export class OrderActionsController {
  constructor(private readonly actions: OrderActionsService) {}

  /** Pending or expired → paid (an expired order takes its places again). */
  @Post('mark_paid')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  markOrderPaid(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: MarkPaidDto,
  ): Promise<OrderJson> {
    return this.actions.markPaid(event, principal, code, body);
  }

  /** Paid → pending. No body. */
  @Post('mark_pending')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  markOrderPending(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
  ): Promise<OrderJson> {
    return this.actions.markPending(event, principal, code);
  }

  /** Pending → expired. No body. */
  @Post('mark_expired')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  markOrderExpired(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
  ): Promise<OrderJson> {
    return this.actions.markExpired(event, principal, code);
  }

  /** Pending, paid or expired → canceled, or paid with only a cancellation fee left. */
  @Post('mark_canceled')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  markOrderCanceled(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: MarkCanceledDto,
  ): Promise<OrderJson> {
    return this.actions.markCanceled(event, principal, code, body);
  }

  /** Canceled → pending (or paid when already paid for). No body. */
  @Post('reactivate')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  reactivateOrder(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
  ): Promise<OrderJson> {
    return this.actions.reactivate(event, principal, code);
  }

  /** New payment deadline for a pending or expired order. */
  @Post('extend')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  extendOrder(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: ExtendOrderDto,
  ): Promise<OrderJson> {
    return this.actions.extend(event, principal, code, body);
  }

  /** Approves an order pending approval. */
  @Post('approve')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  approveOrder(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: ApproveOrderDto,
  ): Promise<OrderJson> {
    return this.actions.approve(event, principal, code, body);
  }

  /** Denies an order pending approval (it is canceled). */
  @Post('deny')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  denyOrder(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: DenyOrderDto,
  ): Promise<OrderJson> {
    return this.actions.deny(event, principal, code, body);
  }

  /** New order and ticket secrets; the old ticket secrets are revoked (scans answer `revoked`). */
  @Post('regenerate_secrets')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderJson })
  regenerateOrderSecrets(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
  ): Promise<OrderJson> {
    return this.actions.regenerateSecrets(event, principal, code);
  }
}
