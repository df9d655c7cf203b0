import { Body, Controller, Delete, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { NoStore } from '../../common/http/no-store';
import { Event } from '../../organizers/event.entity';
import { OrderPositionJson } from '../presentation/order.presenter';
import { CreateOrderPositionDto } from './order-change.dto';
import { OrderChanges } from './order-change.service';
import { CHECK_QUOTAS_QUERY, checkQuotasParam } from './order-changes.controller';

/**
 * `POST E/orderpositions/` and `DELETE E/orderpositions/{id}/` (compat §4.4), permission `event.orders:write`:
 * thin wrappers over the order change ({@link OrderChanges}). POST answers 201 with the new position, DELETE
 * 204; 400 for invalid data or when the last position of an order would go.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orderpositions')
export class OrderPositionWritesController {
  constructor(private readonly changes: OrderChanges) {}

  /** Adds a position to the order named by `order`. */
  @Post()
  @RequirePermission('event.orders:write')
  @ApiQuery(CHECK_QUOTAS_QUERY)
  @ApiCreatedResponse({ type: OrderPositionJson })
  createOrderPosition(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateOrderPositionDto,
    @Query('check_quotas') checkQuotas?: string,
  ): Promise<OrderPositionJson> {
    return this.changes.addPosition(event, principal, body, checkQuotasParam(checkQuotas));
  }

  /** Cancels the position (and its add-ons). */
  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  @ApiNoContentResponse()
  async destroyOrderPosition(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<void> {
    await this.changes.cancelPosition(event, principal, id);
  }
}
