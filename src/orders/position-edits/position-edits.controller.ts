import { Body, Controller, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { NoStore } from '../../common/http/no-store';
import { Event } from '../../organizers/event.entity';
import { OrderPositionJson } from '../presentation/order.presenter';
import { UpdateOrderPositionDto } from './position-edit.dto';
import { PositionEdits } from './position-edits.service';

/**
 * `PATCH E/orderpositions/{id}/` and `POST E/orderpositions/{id}/regenerate_secrets/` (pretix "Order position
 * endpoints"), permission `event.orders:write`: 200 with the position; 400 naming the field; 404 for a position
 * that is unknown, canceled or of another event. PUT answers 405 (route table).
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orderpositions/:id')
export class PositionEditsController {
  constructor(private readonly edits: PositionEdits) {}

  /** Changes attendee fields, answers (replaced as a whole) or validity of the position. */
  @Patch()
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderPositionJson })
  updateOrderPosition(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: UpdateOrderPositionDto,
  ): Promise<OrderPositionJson> {
    return this.edits.update(event, principal, id, body);
  }

  /** A new ticket secret; the old one is revoked (scans of it answer `revoked`). No body. */
  @Post('regenerate_secrets')
  @HttpCode(200)
  @RequirePermission('event.orders:write')
  @ApiOkResponse({ type: OrderPositionJson })
  regenerateOrderPositionSecrets(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<OrderPositionJson> {
    return this.edits.regenerateSecret(event, principal, id);
  }
}
