import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { NoStore } from '../../common/http/no-store';
import { Event } from '../../organizers/event.entity';
import { OrderJson } from '../presentation/order.presenter';
import { ChangeOrderDto } from './order-change.dto';
import { OrderChanges } from './order-change.service';

/** `?check_quotas=`: pretix reads anything but `true` (any case) as false; absent means true. */
export function checkQuotasParam(raw: string | undefined): boolean {
  return raw === undefined || raw.toLowerCase() === 'true';
}

/** OpenAPI of `?check_quotas=`. */
export const CHECK_QUOTAS_QUERY = {
  name: 'check_quotas',
  required: false,
  type: Boolean,
  description: 'Whether new or changed positions must fit their quotas (default `true`).',
} as const;

/**
 * `POST E/orders/{code}/change/` (compat §4.4 "Changing order contents"), permission `event.orders:write`:
 * 200 with the changed order; 400 with field errors or pretix's message (a bare list); 404 for a code that is
 * not an order of the event; 409 when a lock cannot be had in time.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orders/:code')
export class OrderChangesController {
  constructor(private readonly changes: OrderChanges) {}

  /** Patches, cancels, adds and splits off positions and fees in one transaction. */
  @Post('change')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiQuery(CHECK_QUOTAS_QUERY)
  @ApiOkResponse({ type: OrderJson })
  changeOrder(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Body() body: ChangeOrderDto,
    @Query('check_quotas') checkQuotas?: string,
  ): Promise<OrderJson> {
    return this.changes.change(event, principal, code, body, checkQuotasParam(checkQuotas));
  }
}
