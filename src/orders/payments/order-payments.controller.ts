import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { CurrentEvent } from '../../auth/request-context';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { IdParam } from '../../common/http/id-param';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Event } from '../../organizers/event.entity';
import { OrderPaymentJson } from '../presentation/order.presenter';
import { OrderPaymentsApi } from './order-payments-api.service';

/**
 * `E/orders/{code}/payments/` (pretix doc "Order payment endpoints"): list and detail by `local_id`, permission
 * `event.orders:read` (docs/permissions.md). 404 `{"detail": "Not found."}` for an unknown order or payment.
 */
@ApiTags('orders')
@Controller('organizers/:organizer/events/:event/orders/:code/payments')
export class OrderPaymentsController {
  constructor(private readonly payments: OrderPaymentsApi) {}

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
}
